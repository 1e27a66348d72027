// libFuzzer target: random bytes into the scene and deck loader (parseSceneOrDeck), with the labs'
// real parameter specs. Besides the sanitizers' own checks (ASan, UBSan) it checks one property:
// whatever the loader accepts is valid for its lab and survives a save and reload unchanged (lab,
// title, every parameter, the lab's extra state, the notes; a deck's title and scenes).
#include "app/scene/scene.h"
#include "core/lab/lab.h"

#include <QByteArray>
#include <QString>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>

namespace {

// The labs a scene may name, from core's list, as the window's registry maps them (without
// linking any GUI code).
const fb::LabSpec *specFor(const QString &lab)
{
    return fb::windowLabSpec(lab.toStdString());
}

[[noreturn]] void fail(const char *what, const QString &detail)
{
    std::fprintf(stderr, "fuzz_scene: %s: %s\n", what, qPrintable(detail));
    std::abort();
}

// An accepted scene must be complete and in range, and read back identically after saving.
void checkScene(const fb::Scene &scene)
{
    const fb::LabSpec *spec = specFor(scene.lab);
    if (!spec) fail("accepted an unknown lab", scene.lab);
    if (const std::string err = fb::checkAll(*spec, scene.values); !err.empty())
        fail("accepted values its lab refuses", QString::fromStdString(err));
    const fb::SceneParse back = fb::parseSceneOrDeck(fb::serializeScene(scene, *spec), specFor);
    if (!back.error.isEmpty()) fail("a saved scene does not load", back.error);
    if (back.isDeck || back.scene.lab != scene.lab || back.scene.title != scene.title
        || !(back.scene.values == scene.values) || back.scene.extra != scene.extra || back.scene.notes != scene.notes)
        fail("a saved scene loads differently", scene.lab);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const QByteArray bytes = QByteArray::fromRawData(reinterpret_cast<const char *>(data), qsizetype(size));
    const fb::SceneParse r = fb::parseSceneOrDeck(bytes, specFor);
    if (!r.error.isEmpty()) return 0;
    if (!r.isDeck) {
        checkScene(r.scene);
        return 0;
    }
    if (r.deck.scenes.isEmpty()) fail("accepted an empty deck", r.deck.title);
    for (const fb::Scene &s : r.deck.scenes) checkScene(s);
    const fb::SceneParse back = fb::parseSceneOrDeck(fb::serializeDeck(r.deck, specFor), specFor);
    if (!back.error.isEmpty() || !back.isDeck || back.deck.title != r.deck.title
        || back.deck.scenes.size() != r.deck.scenes.size())
        fail("a saved deck does not load back", back.error);
    for (qsizetype i = 0; i < r.deck.scenes.size(); ++i)
        if (back.deck.scenes[i].lab != r.deck.scenes[i].lab || !(back.deck.scenes[i].values == r.deck.scenes[i].values)
            || back.deck.scenes[i].notes != r.deck.scenes[i].notes)
            fail("a saved deck's scene loads differently", r.deck.scenes[i].lab);
    return 0;
}
