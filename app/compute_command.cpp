#include "app/cli.h"
#include "app/commands.h"

namespace fb {

int runCompute(int, char **)
{
    return failBadInput(QStringLiteral("'compute' is not available in this build yet"));
}

} // namespace fb
