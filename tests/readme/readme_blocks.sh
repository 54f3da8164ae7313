#!/usr/bin/env bash
# Prints the README's fenced ```sh blocks marked `<!-- tested: NAME -->` (the line just above the
# fence), one after another. `--check` instead lists every problem with the markers: a ```sh block
# without a marker, a marker of an unknown name, an indented (unmarked) code block.
# usage: readme_blocks.sh README.md NAME | readme_blocks.sh README.md --check
set -euo pipefail
README=$1
WANT=$2
awk -v want="$WANT" '
  BEGIN { known["entry"]; known["first-proof"]; known["package"]; known["service"]; known["doctor"]; known["rapidsnark"]; bad = 0 }
  function problem(msg) { if (want == "--check") print FILENAME ":" NR ": " msg; bad = 1 }
  in_block && /^```/ { in_block = 0; next }
  in_block { if (name == want) print; next }
  /^```/ {
    lang = substr($0, 4)
    if (lang == "sh" || lang == "bash" || lang == "") {
      name = prev; sub(/^<!-- tested: /, "", name); sub(/ -->$/, "", name)
      if (prev !~ /^<!-- tested: [a-z-]+ -->$/) problem("a shell block without a <!-- tested: NAME --> line above it")
      else if (!(name in known)) problem("unknown test name \"" name "\"")
    } else name = ""
    in_block = 1; prev = $0; next
  }
  /^    [^- *]/ && prev ~ /^$/ { problem("an indented code block: use a marked ```sh block") }
  { prev = $0 }
  END { if (in_block) problem("a fenced block is not closed"); exit bad }
' "$README"
