#pragma once
// The application's font as lecture mode sets it (LectureMode::kFontScale: 1.6 times the usual), for
// as long as this object lives: for the tests that lay a lab out as a slide shows it.
#include <QApplication>
#include <QFont>

namespace fb::test {

class LectureFont {
public:
    explicit LectureFont(double scale = 1.6)
        : normal_(QApplication::font())
    {
        QFont big = normal_;
        big.setPointSizeF(normal_.pointSizeF() * scale);
        QApplication::setFont(big);
    }
    ~LectureFont() { QApplication::setFont(normal_); }
    LectureFont(const LectureFont &) = delete;
    LectureFont &operator=(const LectureFont &) = delete;

private:
    QFont normal_;
};

} // namespace fb::test
