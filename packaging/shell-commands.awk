# Prints the words that stand where a command name stands in shell code, one a line: the first
# word of each simple command (after assignments, redirections and exec/command/env/sudo/time
# prefixes), inside $( ), ( ), pipelines and lists too. Quoted text, array literals, arithmetic and
# case patterns are skipped. Reads the output of `bash --pretty-print SCRIPT` (comments gone, one
# command a line) or the commands of `ninja -t commands`. Over-reports rather than misses: the
# caller keeps only names that resolve to a file on PATH (or absolute paths) and drops builtins.
#   bash --pretty-print SCRIPT | awk -f packaging/shell-commands.awk
BEGIN {
  d = 0; kind[0] = "N"; cmd[0] = 1; w = ""
  split("exec command builtin env sudo time nice nohup timeout xargs ! if then else elif do while until { }", p, " ")
  for (k in p) prefix[p[k]] = 1
}

function word_end() {
  if (redirect) { redirect = 0; w = ""; return }
  if (w == "") return
  # [[ ... ]]: a condition, whose | ( ) belong to patterns and regular expressions.
  if (w == "[[" && cmd[d]) { cond[d] = 1; cmd[d] = 0; w = ""; return }
  if (w == "]]") { cond[d] = 0; w = ""; return }
  if (cmd[d]) {
    if (w ~ /^[A-Za-z_][A-Za-z0-9_]*(\[[^]]*\])?\+?=/) {
      # An assignment before the command: the next word is still the command.
    } else if (w in prefix) {
      print w
      skipopts[d] = (w == "env" || w == "timeout" || w == "xargs" || w == "sudo" || w == "command")
    } else if (w ~ /^-/ && skipopts[d]) {
      if (w == "-u" || w == "-C" || w == "-s" || w == "-k") skiparg[d] = 1
    } else if (skiparg[d]) {
      skiparg[d] = 0
    } else if (w ~ /^"?\$/) {
      # A command in a variable ($sudo, "${wrapper[@]}"): the next word may be the command.
      if (++vars[d] > 1) cmd[d] = 0
    } else {
      if (w ~ /^[A-Za-z0-9_][A-Za-z0-9_.+-]*$/ || w ~ /^\/[^ ]*[^\/]$/) print w
      cmd[d] = 0
    }
  }
  w = ""
}

function command_start() { word_end(); cmd[d] = 1; vars[d] = 0; skipopts[d] = 0; skiparg[d] = 0 }
function push(k, c) { if (k == "N") { wsave[d] = w; w = "" }
  d++; cond[d] = 0; kind[d] = k; cmd[d] = c; vars[d] = 0; skipopts[d] = 0; skiparg[d] = 0; parens[d] = 0 }

{
  line = $0
  # `case WORD in` and `for NAME in WORDS`: no command on the rest of the line.
  if (kind[d] == "N" && line ~ /^[ \t]*(case|for|select)[ \t]/) { w = ""; cmd[d] = 0; next }
  n = length(line)
  for (i = 1; i <= n; i++) {
    c = substr(line, i, 1)
    c2 = substr(line, i, 2)
    k = kind[d]
    if (k == "S") { if (c == "'") d--; continue }
    if (c == "\\") { w = w substr(line, i, 2); i++; continue }
    if (k == "D") {
      if (c == "\"") { d--; w = w "\"" }
      else if (c2 == "$(" && substr(line, i + 2, 1) != "(") { push("N", 1); opened[d] = "$("; i++ }
      else if (c2 == "$(") { push("A", 0); i += 2; parens[d] = 2 }
      else w = w c
      continue
    }
    if (k == "A" || k == "B") {
      # Arithmetic, array literals and ${...}: no command, but $( ) inside may hold one.
      if (c2 == "$(" && substr(line, i + 2, 1) != "(") { push("N", 1); opened[d] = "$("; i++; continue }
      if (k == "B") { if (c == "}") d--; continue }
      if (c == "(") parens[d]++
      else if (c == ")" && --parens[d] <= 0) d--
      continue
    }
    # Code.
    if (cond[d] && (c == "|" || c == "&" || c == "(" || c == ")" || c == "<" || c == ">")) { w = w c; continue }
    if (c == "'") { w = w "'"; push("S", 0); continue }
    if (c == "\"") { w = w "\""; push("D", 0); continue }
    if (c2 == "${") { w = w "${"; push("B", 0); i++; continue }
    if (c2 == "$(" && substr(line, i + 2, 1) == "(") { w = w "$"; push("A", 0); parens[d] = 2; i += 2; continue }
    if (c2 == "$(") { w = w "$"; push("N", 1); opened[d] = "$("; i++; continue }
    if (c2 == "=(" ) { w = w "="; word_end(); push("A", 0); parens[d] = 1; i++; continue }
    if (c2 == "((" && cmd[d] && w == "") { push("A", 0); parens[d] = 2; i++; continue }
    if (c == "(" && w == "") { push("N", 1); opened[d] = "("; continue }
    if (c == ")") {
      if (d > 0 && (opened[d] == "(" || opened[d] == "$(")) { word_end(); d--; w = wsave[d]; continue }
      # A case pattern ends: what follows is a command.
      w = ""; command_start(); continue
    }
    if (c == ";" || c == "|" || c == "&" || c == "\n") { command_start(); continue }
    if (c == ">" || c == "<") {
      # A redirection: its target is not a command.
      word_end(); redirect = 1
      while (substr(line, i + 1, 1) ~ /[<>&|]/) i++
      continue
    }
    if (c == " " || c == "\t") {
      if (!(redirect && w == "")) word_end()
      continue
    }
    w = w c
  }
  # A line ends a command (pretty-printed code ends commands with ';' or a newline).
  if (kind[d] == "N") command_start()
}
