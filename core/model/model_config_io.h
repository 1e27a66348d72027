#pragma once
// A model file's CONF section (core/model/model_file.h): the TransformerConfig without its text,
// written field by field in the order of the versions that added them, and read back for any version
// from 1 to ModelFile::kVersion with the same checks as a training's.
#include <cstdint>

namespace fb {

class ByteReader;
class ByteWriter;
struct TransformerConfig;

void writeModelConfig(ByteWriter &w, const TransformerConfig &c);
// False (r holds the one-line reason) when a field is out of range or the configuration would not train.
bool readModelConfig(ByteReader &r, TransformerConfig &c, std::uint32_t version);

} // namespace fb
