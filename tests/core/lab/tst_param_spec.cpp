// Parameter specs: parsing, ranges and the messages a person reads.
#include "core/lab/param_spec.h"

#include <QTest>

#include <cstdio>
#include <limits>

using namespace fb;

class TestParamSpec : public QObject {
    Q_OBJECT
private:
    LabSpec lab() const
    {
        LabSpec spec { "demo", "Demo", {} };
        ParamSpec d { "d", "head dimension", "", ParamKind::Integer, 2, 1024, 64 };
        d.multipleOf = 2;
        ParamSpec base { "base", "RoPE base", "", ParamKind::Real, 1.0001, 1e9, 10000 };
        ParamSpec method { "method", "scaling", "", ParamKind::Choice };
        method.choices = { "none", "pi", "ntk", "yarn" };
        method.defText = "none";
        spec.params = { d, base, method };
        return spec;
    }
private Q_SLOTS:
    void defaultsAreValid()
    {
        const LabSpec spec = lab();
        QVERIFY(checkAll(spec, spec.defaults()).empty());
        QCOMPARE(spec.defaults().integer("d"), 64);
        QCOMPARE(QString::fromStdString(spec.defaults().text("method")), QStringLiteral("none"));
    }
    void setFromText_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("errorPart");  // empty: accepted
        QTest::newRow("even d") << "d" << "128" << "";
        QTest::newRow("odd d") << "d" << "63" << "d must be an even integer in [2, 1024], got 63";
        QTest::newRow("d not a number") << "d" << "sixty" << "not a number";
        QTest::newRow("trailing junk") << "d" << "64x" << "not a number";
        QTest::newRow("empty") << "d" << "" << "not a number";
        QTest::newRow("base too small") << "base" << "1" << "base must be a number in [1.0001, 1000000000], got 1";
        QTest::newRow("base nan") << "base" << "nan" << "base must be";
        QTest::newRow("base inf") << "base" << "inf" << "base must be";
        QTest::newRow("base beyond a double") << "base" << "1e400" << "got '1e400', which is far outside that range";
        QTest::newRow("base beyond a double, negative") << "base" << "-1e400" << "which is far outside that range";
        QTest::newRow("base below a double") << "base" << "1e-400" << "which is too close to 0 for a double";
        QTest::newRow("choice ok") << "method" << "yarn" << "";
        QTest::newRow("choice bad") << "method" << "rope" << "method must be one of none|pi|ntk|yarn, got 'rope'";
        QTest::newRow("unknown key") << "dd" << "1" << "unknown key 'dd' for demo; valid keys: d, base, method";
    }
    void setFromText()
    {
        QFETCH(QString, key);
        QFETCH(QString, value);
        QFETCH(QString, errorPart);
        const LabSpec spec = lab();
        ParamValues values = spec.defaults();
        const ParamValues before = values;
        const QString err = QString::fromStdString(fb::setFromText(spec, values, key.toStdString(), value.toStdString()));
        if (errorPart.isEmpty()) {
            QVERIFY2(err.isEmpty(), qPrintable(err));
        } else {
            QVERIFY2(err.contains(errorPart), qPrintable(err));
            QVERIFY(values == before);  // a refused value changes nothing
        }
    }
    void formatNumberRoundTrips()
    {
        for (double v : { 0.1, 1.0 / 3.0, 15.95, 1e-300, 6.02e23, -2.5 })
            QCOMPARE(std::strtod(formatNumber(v).c_str(), nullptr), v);
        QCOMPARE(QString::fromStdString(formatNumber(64)), QStringLiteral("64"));
    }
    // The divergence messages' numbers: printf's %.4g (what the transformer trainer printed), the same
    // in every locale, and the non-finite ones as formatNumber writes them.
    void shortNumberHasFourDigits()
    {
        QCOMPARE(QString::fromStdString(shortNumber(13862.3)), QStringLiteral("1.386e+04"));
        QCOMPARE(QString::fromStdString(shortNumber(0.693147)), QStringLiteral("0.6931"));
        QCOMPARE(QString::fromStdString(shortNumber(100.0)), QStringLiteral("100"));
        for (double v : { 13862.3, 0.693147, 1e-7, 100.0, 2.5e10, -3.14159, 6.93147, 1000.0 / 3.0 }) {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%.4g", v);  // this test runs in the C locale
            QCOMPARE(QString::fromStdString(shortNumber(v)), QString::fromLatin1(buf));
        }
        QCOMPARE(QString::fromStdString(shortNumber(std::numeric_limits<double>::quiet_NaN())), QStringLiteral("nan"));
        QCOMPARE(QString::fromStdString(shortNumber(std::numeric_limits<double>::infinity())), QStringLiteral("inf"));
        QCOMPARE(QString::fromStdString(shortNumber(-std::numeric_limits<double>::infinity())), QStringLiteral("-inf"));
    }
};

QTEST_APPLESS_MAIN(TestParamSpec)
#include "tst_param_spec.moc"
