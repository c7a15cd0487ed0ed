#!/usr/bin/env python3
"""A whole All Fives engine (docs/engine.md): it plays the move that scores the most now.

Run it under the connector:
    allfives connect --server URL --key afk_... --engine "python3 greedy_engine.py"
"""
import json
import sys


def say(line):
    print(line, flush=True)  # the connector waits for each answer: flush every line


for line in sys.stdin:
    word, _, rest = line.rstrip("\r\n").partition(" ")
    if word == "allfives-engine":
        if rest != "1":
            say("unsupported")
            break
        say("id name greedy.py")
        say("ready")
    elif word == "match":
        say("info playing match " + rest)
    elif word == "go":
        _ms_left, _, moves = rest.partition(" ")
        legal = json.loads(moves)  # draw or pass come only alone
        best = max(legal, key=lambda m: m.get("points", -1))
        say("move " + json.dumps(best))
    elif word == "quit":
        break
    # event, error and end need nothing from this engine; unknown lines are ignored
