#include "app/cli.h"
#include "app/commands.h"

namespace fb {

int runExport(int, char **)
{
    return failBadInput(QStringLiteral("'export' is not available in this build yet"));
}

} // namespace fb
