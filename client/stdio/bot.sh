#!/bin/sh
# A dalmuti-net bot over standard input and output in POSIX sh and awk (no JSON library):
#
#     dalmuti bot 192.168.1.20 --exec "sh client/stdio/bot.sh"
#
# Each line on stdin is one JSON object. For a decision, print one line: the index (from 0)
# of one of its "legal" answers. This bot plays the worst set it may without Jesters (the
# sets are listed best rank first), gives the worst cards as tax, and otherwise takes the
# first legal answer (pass when nothing fits, no revolution, decline the exchange, ...).
# See PROTOCOL.md, "Bots over standard input and output".

while IFS= read -r line; do
    case $line in
    '{"type":"decision"'*) ;;
    *) continue ;; # table_ended: nothing to answer
    esac
    printf '%s\n' "$line" | awk '{
        match($0, /"kind":"[a-z]*"/)  # the first "kind" is the decision kind
        kind = substr($0, RSTART + 8, RLENGTH - 9)
        legal = $0
        sub(/.*"legal":\[/, "", legal)
        sub(/\],"observation":.*/, "", legal)
        n = split(legal, answers, /\{"type":/)
        choice = 0
        for (i = 2; i <= n; i++) {
            if (kind == "play" && answers[i] ~ /"jesters":0/) choice = i - 2
            if (kind == "tax" && answers[i] !~ /13/) choice = i - 2
        }
        print choice
    }'
done
