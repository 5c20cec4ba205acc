"""Keypane's words measured by kebbie (FleksySDK's keyboard benchmark), beside two baselines in the same run.

Keypane answers through keypane-words, its own typing engine and suggester. kebbie draws its noisy taps on
its own keyboard; each tap is carried onto Keypane's key of the same letter, by the key's pitch. The
baselines: the plain lookups in Keypane's word and pair lists (the three commonest words with the typed
prefix; the three commonest followers), and pyspellchecker for correction.

usage: evaluate.py PROGRAM SENTENCES [--count N] [--processes N]
"""

import argparse
import json
import os
import subprocess
import sys
import time
from collections import defaultdict

import kebbie
import kebbie.noise_model
import requests
from kebbie.utils import load_keyboard

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def kebbie_keys():
    """kebbie's own letter keys and space bar, by character: centre and size."""
    keys = {}
    for button in load_keyboard("en-US")["layout"][0]["buttons"]:
        label = button["labels"][0] if button["labels"] else ""
        rect = button["boundingRect"]
        if len(label) == 1 and label.isalpha() or label == "spacebar":
            name = " " if label == "spacebar" else label
            keys[name] = ((rect["left"] + rect["right"]) / 2, (rect["top"] + rect["bottom"]) / 2,
                          rect["right"] - rect["left"], rect["bottom"] - rect["top"])
    return keys


def common_typos():
    """kebbie's common typos (the Twitter Typo Corpus), from its cache or the web; none when neither has them,
    which kebbie's noise then lacks (said in the output)."""
    cached = os.path.join(kebbie.noise_model.CACHE_DIR, "en.json")
    if os.path.exists(cached):
        with open(cached, encoding="utf-8") as file:
            return json.load(file), "kebbie's common typos"
    try:
        response = requests.get(kebbie.noise_model.TWEET_TYPO_CORPUS_URL, timeout=10)
        response.raise_for_status()
    except requests.RequestException as error:
        return {}, f"no common typos (cannot fetch {kebbie.noise_model.TWEET_TYPO_CORPUS_URL}: {type(error).__name__})"
    typos = defaultdict(list)
    for line in response.text.strip().split("\n"):
        typo, correct, *_ = line.split("\t")
        typos[correct].append(typo)
    return typos, "kebbie's common typos"


class TimedCorrector(kebbie.Corrector):
    """Times each request, without kebbie's tracing of Python's allocations: Keypane's memory is its own
    process's, and the tracing made the pyspellchecker baseline some ten times slower."""

    def timed(self, method, *args):
        start = time.perf_counter_ns()
        answer = method(*args)
        return answer, 0, time.perf_counter_ns() - start

    def profiled_auto_correct(self, *args):
        return self.timed(self.auto_correct, *args)

    def profiled_auto_complete(self, *args):
        return self.timed(self.auto_complete, *args)

    def profiled_predict_next_word(self, *args):
        return self.timed(self.predict_next_word, *args)

    def profiled_resolve_swipe(self, *args):
        return self.timed(self.resolve_swipe, *args)


class KeypaneCorrector(TimedCorrector):
    """Keypane's suggester, through keypane-words (started in each of kebbie's processes)."""

    def __init__(self, program, tuning=()):
        self.program = program
        self.tuning = list(tuning)
        self.process = None
        self.times = []

    def __getstate__(self):
        return {"program": self.program, "tuning": self.tuning, "process": None, "times": []}

    def start(self):
        tuning = [argument for setting in self.tuning for argument in ["--tune", setting]]
        self.process = subprocess.Popen([self.program, "--language", "en", "--width", "390", "--height", "300"] + tuning,
                                        cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        own = {key["text"]: key for key in json.loads(self.process.stdout.readline())["keys"]}
        self.ours = kebbie_keys()
        self.theirs = {name: (key["x"] + key["width"] / 2, key["y"] + key["height"] / 2, key["width"], key["height"])
                       for name, key in own.items() if name in self.ours}

    def carried(self, point, character):
        """A tap on kebbie's keyboard at the same place on Keypane's key of the nearest letter."""
        if point is None or not (character.isalpha() or character == " "):
            return None
        x, y = point
        name = min(self.ours, key=lambda n: (self.ours[n][0] - x) ** 2 + (self.ours[n][1] - y) ** 2)
        if name not in self.theirs:
            return None
        cx, cy, w, h = self.ours[name]
        kx, ky, kw, kh = self.theirs[name]
        return [kx + (x - cx) / w * kw, ky + (y - cy) / h * kh]

    def ask(self, request):
        if self.process is None:
            self.start()
        start = time.perf_counter()
        self.process.stdin.write(json.dumps(request) + "\n")
        answer = json.loads(self.process.stdout.readline())["candidates"]
        self.times.append(time.perf_counter() - start)
        return answer

    def keystrokes(self, keystrokes, word):
        if self.process is None:
            self.start()
        return [self.carried(point, character) for point, character in zip(keystrokes, word)]

    def auto_correct(self, context, keystrokes, word):
        return self.ask({"op": "correct", "context": context, "word": word,
                         "keystrokes": self.keystrokes(keystrokes, word)})

    def auto_complete(self, context, keystrokes, partial_word):
        return self.ask({"op": "complete", "context": context, "word": partial_word,
                         "keystrokes": self.keystrokes(keystrokes, partial_word)})

    def predict_next_word(self, context):
        return self.ask({"op": "next", "context": context})


def read_counts(path, pairs):
    counts = {} if not pairs else defaultdict(dict)
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            parts = line.split()
            if pairs and len(parts) == 3:
                counts[parts[0].lower()][parts[1].lower()] = int(parts[2])
            elif not pairs and len(parts) == 2:
                counts[parts[0].lower()] = max(counts.get(parts[0].lower(), 0), int(parts[1]))
    return counts


class LookupCorrector(TimedCorrector):
    """The plain baseline: prefix and pair lookups in Keypane's own English lists, and pyspellchecker."""

    def __init__(self):
        self.words = read_counts(os.path.join(ROOT, "Dictionaries/en/words.txt"), pairs=False)
        self.pairs = read_counts(os.path.join(ROOT, "Dictionaries/en/pairs.txt"), pairs=True)
        self.ranked = sorted(self.words, key=lambda w: -self.words[w])
        self.checker = None
        self.corrected = {}

    def __getstate__(self):
        state = dict(self.__dict__)
        state["checker"] = None
        return state

    def auto_correct(self, context, keystrokes, word):
        if self.checker is None:
            from spellchecker import SpellChecker
            self.checker = SpellChecker()
        if word not in self.corrected:
            self.corrected[word] = self.checker.correction(word) or word
        return [self.corrected[word]]

    def auto_complete(self, context, keystrokes, partial_word):
        prefix = partial_word.lower()
        return [w for w in self.ranked if w.startswith(prefix)][:3]

    def predict_next_word(self, context):
        words = context.split()
        followers = self.pairs.get(words[-1].lower(), {}) if words else {}
        best = sorted(followers, key=lambda w: -followers[w])[:3]
        return best + [w for w in self.ranked[:6] if w not in best][: 3 - len(best)]


def figures(results):
    """kebbie's figures that the issue names: completion and next word top-3, correction F, P, R."""
    overall = results["overall_score"] if "overall_score" in results else None
    completion = results["auto_completion"]["score"]["top3_accuracy"]
    next_word = results["next_word_prediction"]["score"]["top3_accuracy"]
    correction = results["auto_correction"]["score"]
    return {"completion top-3": completion, "next word top-3": next_word,
            "correction F": correction["fscore"], "precision": correction["precision"],
            "recall": correction["recall"], "overall": overall}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("program")
    parser.add_argument("sentences")
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--only", choices=["keypane", "baseline"], help="measure one of the two")
    parser.add_argument("--tune", action="append", default=[], metavar="NAME=NUMBER",
                        help="a suggester setting for keypane-words to try; tune on other text than the held-out set")
    arguments = parser.parse_args()
    with open(arguments.sentences, encoding="utf-8") as lines:
        sentences = [line.strip() for line in lines if line.strip()][: arguments.count]
    words = sum(len(s.split()) for s in sentences)
    print(f"kebbie {getattr(kebbie, '__version__', '0.5.1')} on {len(sentences)} held-out sentences "
          f"({words} words) of {os.path.basename(arguments.sentences)}")
    dataset = {"held-out": sentences}
    typos, said = common_typos()
    # kebbie's noise model reads them in each of its processes: given once here (the processes are forked).
    kebbie.noise_model.NoiseModel._get_common_typos = lambda self: typos if self.lang.startswith("en") else {}
    print(f"noise: kebbie's default (taps Gaussian around its key centres, its typo rates), {said}")
    rows = []
    correctors = [("keypane", KeypaneCorrector(arguments.program, arguments.tune)), ("lookups + pyspellchecker", LookupCorrector())]
    for name, corrector in correctors:
        if arguments.only and not name.startswith(arguments.only[:4]) and not (arguments.only == "baseline" and name.startswith("lookups")):
            continue
        start = time.perf_counter()
        results = kebbie.evaluate(corrector, dataset=dataset, n_proc=arguments.processes)
        rows.append((name, figures(results), time.perf_counter() - start, results))
        sys.stdout.flush()
    print(f"{'':28}{'completion':>12}{'next word':>11}{'correction F':>14}{'precision':>11}{'recall':>8}")
    for name, f, seconds, _ in rows:
        print(f"{name:28}{f['completion top-3']:>12.2f}{f['next word top-3']:>11.2f}{f['correction F']:>14.2f}"
              f"{f['precision']:>11.2f}{f['recall']:>8.2f}   ({seconds:.0f} s)")
    keypane = rows[0][3] if rows[0][0] == "keypane" else {}
    for task in ["auto_correction", "auto_completion", "next_word_prediction"]:
        performances = keypane.get(task, {}).get("performances", {})
        runtime = performances.get("mean_runtime") if isinstance(performances, dict) else None
        if runtime:
            print(f"keypane {task.replace('_', ' ')}: mean {runtime}, fastest {performances.get('fastest_runtime')}, "
                  f"slowest {performances.get('slowest_runtime')} per request (kebbie's timing)")


if __name__ == "__main__":
    main()
