#!/usr/bin/env python3
"""Prints each caret move the accessibility bus announces, with the moment it arrived on CLOCK_MONOTONIC
(keypane-bench's clock): "SECONDS OFFSET", a line each, for the bench's trackpad read-back figures."""
import time

import gi
gi.require_version("Atspi", "2.0")
from gi.repository import Atspi


def moved(event):
    print(f"{time.monotonic():.6f} {event.detail1}", flush=True)


listener = Atspi.EventListener.new(moved)
listener.register("object:text-caret-moved")
print("listening", flush=True)
Atspi.event_main()
