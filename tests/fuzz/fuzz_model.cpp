// libFuzzer target: random bytes into the model file reader (ModelFile::decode). Besides the
// sanitizers' own checks (ASan, UBSan, and libFuzzer's RSS limit for an allocation from an unchecked
// size) it checks one property: whatever the reader accepts is written back to the very same bytes.
#include "core/model/model_file.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string_view bytes(reinterpret_cast<const char *>(data), size);
    fb::SavedModel model;
    if (!fb::ModelFile::decode(bytes, model).empty()) return 0;
    if (fb::ModelFile::encode(model.model, model.run) != bytes) {
        std::fprintf(stderr, "fuzz_model: an accepted file is not written back byte for byte\n");
        std::abort();
    }
    return 0;
}
