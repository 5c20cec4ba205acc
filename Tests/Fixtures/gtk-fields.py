#!/usr/bin/env python3
"""A GTK 3 window with the fields the auto-show tests focus: a plain entry, a password entry, a multi-line
text view, a terminal (VTE, whose keys go to `cat` into the file named by the first argument) and a button. It prints, one JSON object a line on standard output,
where each widget's centre is on the root window once it is shown ({"at": name, "x": x, "y": y}) and each
field's whole text whenever it changes ({"text": name, "value": text})."""
import json
import os
import sys

import gi
gi.require_version("Gtk", "3.0")
gi.require_version("Vte", "2.91")
from gi.repository import Gdk, GLib, Gtk, Vte


def say(**fields):
    print(json.dumps(fields), flush=True)


window = Gtk.Window(title="Keypane fields")
window.set_default_size(480, 460)
window.move(*[int(n) for n in os.environ.get("KEYPANE_FIELDS_AT", "0,0").split(",")])
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
terminal = Vte.Terminal()
terminal.set_size_request(-1, 80)
terminal.spawn_async(Vte.PtyFlags.DEFAULT, None,
                     ["/bin/sh", "-c", 'stty raw -echo; exec cat > "$0"', sys.argv[1] if len(sys.argv) > 1 else "/dev/null"],
                     None, GLib.SpawnFlags.DEFAULT, None, None, -1, None, None, None)
widgets["terminal"] = terminal
# Ctrl+Shift+C and V copy and paste, as GNOME Terminal, Xfce's and Tilix bind them around their VTE.
def terminal_key(_, event):
    shortcut = Gdk.ModifierType.CONTROL_MASK | Gdk.ModifierType.SHIFT_MASK
    if event.state & shortcut != shortcut:
        return False
    if event.keyval in (Gdk.KEY_V, Gdk.KEY_v):
        terminal.paste_clipboard()
        return True
    if event.keyval in (Gdk.KEY_C, Gdk.KEY_c):
        terminal.copy_clipboard_format(Vte.Format.TEXT)
        return True
    return False


terminal.connect("key-press-event", terminal_key)
button = Gtk.Button(label="OK")
widgets["button"] = button
for widget in widgets.values():
    box.pack_start(widget, False, False, 0)

for name in ("plain", "password"):
    widgets[name].connect("changed", lambda entry, name=name: say(text=name, value=entry.get_text()))
# Which widget has the keyboard focus, whenever one gets it ({"focus": name}).
for name, widget in widgets.items():
    widget.connect("focus-in-event", lambda *_, name=name: say(focus=name) and False)
# KEYPANE_FIELDS_HANG=SECONDS: the application stops answering that long, a moment after its text view
# gets the focus (once its focus event is out), as a busy application does.
hang = float(os.environ.get("KEYPANE_FIELDS_HANG", "0"))
if hang > 0:
    import time
    view.connect("focus-in-event", lambda *_: GLib.timeout_add(100, lambda: time.sleep(hang)) and False)

# KEYPANE_FIELDS_NO_ARROWS=1: the plain entry takes Left and Right for itself, as an application with its
# own use for arrow keys does: its caret moves only by other means.
if os.environ.get("KEYPANE_FIELDS_NO_ARROWS"):
    plain.connect("key-press-event", lambda _, event: event.keyval in (Gdk.KEY_Left, Gdk.KEY_Right))

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
