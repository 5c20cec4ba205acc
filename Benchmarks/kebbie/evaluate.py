"""Keypane's words measured by kebbie (FleksySDK's keyboard benchmark), beside two baselines in the same run.

Keypane answers through keypane-words, its own typing engine and suggester. kebbie draws its noisy taps on
its own keyboard; each tap is carried onto Keypane's key of the same letter, by the key's pitch. The
baselines: the plain lookups in Keypane's word and pair lists (the three commonest words with the typed
prefix; the three commonest followers), and pyspellchecker for correction.

Slide to type is measured on its own, on every word of the sentences (kebbie's evaluate() swipes one word in a
hundred): strokes from kebbie's generator and from a second, minimum-jerk one, with and without context.

usage: evaluate.py PROGRAM SENTENCES [--count N] [--swipes N] [--processes N]
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

    def swipe(self, context, gesture, begun=""):
        """The words a stroke on Keypane's keys (its pixels) types: the word first, then the bar's. `begun`: letters
        of a word tapped just before the stroke."""
        return self.ask({"op": "swipe", "context": context, "word": begun,
                         "gesture": [list(point) for point in gesture]})

    def peak_memory(self):
        """The most memory keypane-words has held (VmHWM), in KiB."""
        with open(f"/proc/{self.process.pid}/status", encoding="utf-8") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
        return 0


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


def carry_map(ours, theirs):
    """The affine map from kebbie's keyboard onto Keypane's that fits the letters' centres best (least
    squares): kebbie's strokes are smooth curves, carried whole rather than key by key."""
    import numpy as np
    letters = [name for name in ours if name in theirs and name != " "]
    source = np.array([[ours[n][0], ours[n][1], 1.0] for n in letters])
    target = np.array([[theirs[n][0], theirs[n][1]] for n in letters])
    matrix, *_ = np.linalg.lstsq(source, target, rcond=None)
    return lambda point: tuple(np.array([point[0], point[1], 1.0]) @ matrix)


def minimum_jerk_stroke(word, keys, rng):
    """The second generator: through each letter's key centre moved by a Gaussian jitter (a fifth of a key),
    along gently curved segments travelled with a minimum-jerk speed profile, sampled every 10 ms."""
    width = sum(k[2] for k in keys.values()) / len(keys)
    anchors = []
    for index, letter in enumerate(word):
        if index > 0 and letter == word[index - 1]:
            continue  # a doubled letter: the finger stays
        x, y, _, _ = keys[letter]
        anchors.append((x + rng.gauss(0, 0.2 * width), y + rng.gauss(0, 0.2 * width)))
    points = [anchors[0]]
    for (x0, y0), (x1, y1) in zip(anchors, anchors[1:]):
        length = ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5
        bend = rng.gauss(0, 0.15 * width)
        cx, cy = (x0 + x1) / 2 - (y1 - y0) / max(length, 1) * bend, (y0 + y1) / 2 + (x1 - x0) / max(length, 1) * bend
        steps = max(3, int(8 * (length / width) ** 0.5))
        for i in range(1, steps + 1):
            t = i / steps
            s = 10 * t ** 3 - 15 * t ** 4 + 6 * t ** 5
            points.append(((1 - s) ** 2 * x0 + 2 * (1 - s) * s * cx + s ** 2 * x1,
                           (1 - s) ** 2 * y0 + 2 * (1 - s) * s * cy + s ** 2 * y1))
    return points


def swipe_words(sentences, count):
    """Words to swipe with the text before each in its sentence: letters only, two or more, up to `count`."""
    chosen = []
    for sentence in sentences:
        before = []
        for token in sentence.split():
            word = token.strip(".,;:!?\"()[]{}")
            if len(word) >= 2 and word.isascii() and word.isalpha():
                chosen.append((" ".join(before), word.lower()))
            before.append(token)
            if len(chosen) >= count:
                return chosen
    return chosen


def measure_swipes(program, sentences, count, tuning=()):
    """Top-1 and top-3 word accuracy of strokes from kebbie's generator and from a minimum-jerk one, with and
    without the words before as context, and decode time per stroke."""
    import random
    from kebbie.noise_model import NoiseModel
    random.seed(1)
    rng = random.Random(2)
    corrector = KeypaneCorrector(program, tuning)
    corrector.start()
    carry = carry_map(corrector.ours, corrector.theirs)
    noise = NoiseModel("en-US", common_typos={})
    words = swipe_words(sentences, count)
    strokes = {"kebbie": [], "minimum jerk": []}
    for context, word in words:
        gesture = noise.swipe(word)
        strokes["kebbie"].append([carry(point) for point in gesture] if gesture else None)
        strokes["minimum jerk"].append(minimum_jerk_stroke(word, corrector.theirs, rng))
    known = read_counts(os.path.join(ROOT, "Dictionaries/en/words.txt"), pairs=False)
    in_dictionary = sum(word in known for _, word in words)
    print(f"slide to type: {len(words)} words of the same held-out sentences ({in_dictionary} in the dictionary); "
          f"strokes carried onto Keypane's keys")
    print(f"{'':48}{'top 1':>8}{'top 3':>8}{'strokes':>9}   {'dictionary words: top 1':>24}{'top 3':>8}")
    times = []
    for generator, gestures in strokes.items():
        for variant, with_context in [("keypane, words before as context", True), ("baseline: no context", False)]:
            hits = {"all": [0, 0, 0], "known": [0, 0, 0]}
            for (context, word), gesture in zip(words, gestures):
                if gesture is None:
                    continue
                start = time.perf_counter()
                found = corrector.swipe(context if with_context else "", gesture)
                times.append(time.perf_counter() - start)
                found = [candidate.lower() for candidate in found]
                if os.environ.get("KEYPANE_SWIPE_MISSES") and found[:1] != [word]:
                    print(f"  miss ({generator}, context {with_context}): {word!r} -> {found[:4]}")
                for group in ["all", "known"] if word in known else ["all"]:
                    hits[group][0] += found[:1] == [word]
                    hits[group][1] += word in found[:3]
                    hits[group][2] += 1
            (a1, a3, an), (k1, k3, kn) = hits["all"], hits["known"]
            print(f"{generator + ', ' + variant:48}{a1 / max(an, 1):>8.3f}{a3 / max(an, 1):>8.3f}{an:>9}   "
                  f"{k1 / max(kn, 1):>24.3f}{k3 / max(kn, 1):>8.3f}")
    # Telling strokes from taps: kebbie's strokes the engine read as taps (one character typed), and slides
    # from a key's centre to a neighbour's. Within a word (letters tapped before it) such a slide is a tap
    # corrected on the way and types one letter; at a word's start it may also be a two-letter word's stroke
    # ("as", "we"), and types a word only where one runs closely from key to key.
    def typed(context, gesture, begun=""):
        answer = corrector.swipe(context, gesture, begun)
        return answer[0] if answer else ""
    as_taps = sum(1 for (context, word), gesture in zip(words, strokes["kebbie"])
                  if gesture is not None and len(typed(context, gesture)) <= 1)
    letters = [name for name in corrector.theirs if name != " "]
    pitch_x = min(abs(corrector.theirs[a][0] - corrector.theirs[b][0]) for a in letters for b in letters
                  if a != b and corrector.theirs[a][1] == corrector.theirs[b][1])
    pitch_y = min(abs(corrector.theirs[a][1] - corrector.theirs[b][1]) for a in letters for b in letters
                  if corrector.theirs[a][1] != corrector.theirs[b][1])
    neighbours = [(a, b) for a in letters for b in letters if a != b
                  and ((corrector.theirs[a][0] - corrector.theirs[b][0]) / pitch_x) ** 2
                  + ((corrector.theirs[a][1] - corrector.theirs[b][1]) / pitch_y) ** 2 < 1.6 ** 2]
    within, at_start = 0, []
    for a, b in neighbours:
        (ax, ay, _, _), (bx, by, _, _) = corrector.theirs[a], corrector.theirs[b]
        slide = [(ax + (bx - ax) * t / 6 + rng.gauss(0, 1), ay + (by - ay) * t / 6 + rng.gauss(0, 1)) for t in range(7)]
        within += len(typed("", slide, begun="th")) > 1
        word = typed("", slide)
        if len(word) > 1:
            at_start.append(f"{a}{b}: {word}")
    print(f"kebbie strokes typed as taps: {as_taps} of {sum(g is not None for g in strokes['kebbie'])}")
    print(f"slides to a neighbouring key, within a word, typed as words: {within} of {len(neighbours)}; at a word's start, "
          f"typed as words: {len(at_start)} of {len(neighbours)} ({', '.join(at_start)})")
    times.sort()
    print(f"stroke -> words, through keypane-words (engine and decoder): p50 {times[len(times) // 2] * 1000:.1f} ms, "
          f"p99 {times[int(len(times) * 0.99)] * 1000:.1f} ms; keypane-words peak memory {corrector.peak_memory() / 1024:.1f} MiB")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("program")
    parser.add_argument("sentences")
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--only", choices=["keypane", "baseline"], help="measure one of the two")
    parser.add_argument("--swipes", type=int, default=2000, help="words to measure slide to type on (0: none)")
    parser.add_argument("--tune", action="append", default=[], metavar="NAME=NUMBER",
                        help="a suggester setting for keypane-words to try; tune on other text than the held-out set")
    arguments = parser.parse_args()
    with open(arguments.sentences, encoding="utf-8") as lines:
        every = [line.strip() for line in lines if line.strip()]
    sentences = every[: arguments.count]
    words = sum(len(s.split()) for s in sentences)
    print(f"kebbie {getattr(kebbie, '__version__', '0.5.1')} on {len(sentences)} held-out sentences "
          f"({words} words) of {os.path.basename(arguments.sentences)}")
    if arguments.swipes and arguments.only != "baseline":
        measure_swipes(arguments.program, every, arguments.swipes, arguments.tune)
        sys.stdout.flush()
    if arguments.count == 0:
        return
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
