"""Corrections in German, French, Spanish, Italian, Portuguese, Swedish and Russian on held-out sentences,
through keypane-words.

kebbie has an English keyboard only, so each word of the held-out sentences (Benchmarks/data/README.md) is
typed on Keypane's own keyboard for the language: once on the key centres, where any change is a word
typed right and changed, and once with taps spread around the centres (Gaussian, a third of a key), where
a tap that lands on another key is a slip to put right. A letter no key shows (é, ß) is typed exactly, on
the key that offers it held. The baseline, in the same run, is the language's dictionary built without
its web word list (Dictionaries/LANG/web.txt).

    python3 Benchmarks/languages/evaluate.py .build/release/keypane-words [--count N] [--languages de,fr]
"""

import argparse
import json
import os
import random
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# The language tag of the keyboard where it is not the dictionary's.
KEYBOARDS = {"pt": "pt-BR"}
PUNCTUATION = '.,;:!?()«»"„“”\'¿¡'


class Words:
    """keypane-words for a language and a dictionary."""

    def __init__(self, program, language, dictionary):
        self.process = subprocess.Popen([program, "--language", language, "--width", "390", "--height", "300",
                                         "--dictionary", dictionary], cwd=ROOT, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True, bufsize=1)
        self.keys = {key["text"]: key for key in json.loads(self.process.stdout.readline())["keys"]}

    def correct(self, context, word, keystrokes):
        self.process.stdin.write(json.dumps({"op": "correct", "context": context, "word": word,
                                             "keystrokes": keystrokes}) + "\n")
        candidates = json.loads(self.process.stdout.readline())["candidates"]
        return candidates[0] if candidates else None

    def close(self):
        self.process.stdin.close()
        self.process.wait()


def measure(words, sentences, spread):
    """Words typed right and changed on the key centres; with taps spread, the same and the slips put right."""
    random_taps = random.Random(7)
    keys = words.keys

    def tap(character):
        if character.lower() not in keys:
            return None, character
        key = keys[character.lower()]
        x = key["x"] + key["width"] / 2 + random_taps.gauss(0, key["width"] * spread)
        y = key["y"] + key["height"] / 2 + random_taps.gauss(0, key["height"] * spread)
        nearest = min(keys.values(), key=lambda k: (k["x"] + k["width"] / 2 - x) ** 2 + (k["y"] + k["height"] / 2 - y) ** 2)
        letter = nearest["text"]
        return [x, y], letter.upper() if character.isupper() else letter

    counted = centred = changed = fixed = missed = 0
    for sentence in sentences:
        before = []
        for token in sentence.split():
            word = token.strip(PUNCTUATION)
            context = " ".join(before) + " " if before else ""
            before.append(token)
            if len(word) < 2 or not word.isalpha():
                continue
            counted += 1
            centred += words.correct(context, word, [None] * len(word)) != word
            taps = [tap(character) for character in word]
            typed = "".join(letter for _, letter in taps)
            answer = words.correct(context, word, [point for point, _ in taps])
            if typed == word:
                changed += answer != word
            elif answer == word:
                fixed += 1
            else:
                missed += 1
    return counted, centred, changed, fixed, missed


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("program")
    parser.add_argument("--count", type=int, default=1000, help="sentences a language")
    parser.add_argument("--languages", default="de,fr,es,it,pt,sv,ru")
    parser.add_argument("--tool", default=os.path.join(ROOT, ".build/release/keypane-dict"))
    arguments = parser.parse_args()
    print("corrections on held-out sentences (Benchmarks/data/held-out-LANG.txt), taps on Keypane's keys;"
          " baseline: the same dictionary without Dictionaries/LANG/web.txt")
    print(f"{'':24}{'words':>7}{'changed, centres':>18}{'changed, spread':>17}{'slips fixed':>13}{'precision':>11}{'recall':>8}")
    with tempfile.TemporaryDirectory() as folder:
        for language in arguments.languages.split(","):
            with open(os.path.join(ROOT, f"Benchmarks/data/held-out-{language}.txt"), encoding="utf-8") as text:
                sentences = [line.strip() for line in text if line.strip()][:arguments.count]
            source = os.path.join(ROOT, "Dictionaries", language)
            baseline = os.path.join(folder, f"{language}.dict")
            subprocess.run([arguments.tool, os.path.join(source, "words.txt"), os.path.join(source, "pairs.txt"), baseline],
                           check=True, stdout=subprocess.DEVNULL)
            shipped = os.path.join(ROOT, f"Assets/dictionaries/{language}.dict")
            for name, dictionary in [("keypane", shipped), ("baseline", baseline)]:
                words = Words(arguments.program, KEYBOARDS.get(language, language), dictionary)
                counted, centred, changed, fixed, missed = measure(words, sentences, spread=1 / 3)
                words.close()
                precision = fixed / max(1, fixed + changed)
                recall = fixed / max(1, fixed + missed)
                print(f"{language + ', ' + name:24}{counted:>7}{centred:>18}{changed:>17}{fixed:>13}{precision:>11.3f}{recall:>8.3f}")


if __name__ == "__main__":
    main()
