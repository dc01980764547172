"""A dalmuti-net bot over standard input and output, in Python with its standard library only.

    dalmuti bot 192.168.1.20 --exec "python3 client/stdio/bot.py"

Each line on stdin is one JSON object. For a `decision`, print one JSON line: one of its
`legal` answers, chosen here from the decision and the seat's observation. Everything
else (`table_ended`) needs no answer. See PROTOCOL.md, "Bots over standard input and output".
"""

import json
import sys

JESTER = 13


def choose(request):
    decision, legal = request["decision"], request["legal"]
    kind = decision["kind"]
    if kind == "play":
        plays = [a for a in legal if a["type"] == "play"]
        plain = [a for a in plays if a["set"]["jesters"] == 0]
        if not plays:
            return legal[0]  # nothing beats the table: pass
        if not plain and decision["may_pass"]:
            return {"type": "pass"}  # keep the Jesters for later
        # Shed the worst cards first, as many at a time as possible.
        return max(plain or plays, key=lambda a: (a["set"]["rank"], a["set"]["count"]))
    if kind == "revolution":
        return {"type": "revolution", "declare": True}
    if kind == "tax":
        # Give back the worst cards, Jesters last.
        return max(legal, key=lambda a: sorted((c != JESTER) * c for c in a["cards"]))
    # exchange, misdeal, placement: the first legal answer (decline, intended, first seat).
    return legal[0]


def main():
    for line in sys.stdin:
        request = json.loads(line)
        if request["type"] != "decision":
            continue
        answer = choose(request)
        answer["decision_id"] = request["decision_id"]
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    main()
