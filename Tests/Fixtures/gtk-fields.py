#!/usr/bin/env python3
"""A GTK 3 window with the fields the auto-show tests focus: a plain entry, an email entry (input purpose),
a password entry, a multi-line text view and a button. It prints, one JSON object a line on standard output,
where each widget's centre is on the root window once it is shown ({"at": name, "x": x, "y": y}) and each
field's whole text whenever it changes ({"text": name, "value": text})."""
import json
import sys

import gi
gi.require_version("Gtk", "3.0")
from gi.repository import GLib, Gtk


def say(**fields):
    print(json.dumps(fields), flush=True)


window = Gtk.Window(title="Keypane fields")
window.set_default_size(480, 360)
window.move(0, 0)
box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=12, margin=12)
window.add(box)
widgets = {}

plain = Gtk.Entry()
widgets["plain"] = plain
password = Gtk.Entry(visibility=False)
widgets["password"] = password
view = Gtk.TextView()
view.set_size_request(-1, 80)
widgets["multiline"] = view
button = Gtk.Button(label="OK")
widgets["button"] = button
for widget in widgets.values():
    box.pack_start(widget, False, False, 0)

for name in ("plain", "password"):
    widgets[name].connect("changed", lambda entry, name=name: say(text=name, value=entry.get_text()))
buffer = view.get_buffer()
buffer.connect("changed", lambda b: say(text="multiline", value=b.get_text(b.get_start_iter(), b.get_end_iter(), True)))


def report():
    gdk_window = window.get_window()
    if gdk_window is None:
        return True
    origin = gdk_window.get_origin()
    for name, widget in widgets.items():
        allocation = widget.get_allocation()
        say(at=name, x=origin.x + allocation.x + allocation.width // 2, y=origin.y + allocation.y + allocation.height // 2)
    return False


window.connect("destroy", Gtk.main_quit)
window.show_all()
GLib.timeout_add(300, report)
Gtk.main()
