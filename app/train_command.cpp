#include "app/cli.h"
#include "app/commands.h"

namespace fb {

int runTrain(int, char **)
{
    return failBadInput(QStringLiteral("'train' is not available in this build yet"));
}

} // namespace fb
