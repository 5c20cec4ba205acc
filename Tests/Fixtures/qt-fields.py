#!/usr/bin/env python3
"""A Qt 5 window with a line edit, a password line edit and a button, for the auto-show tests. Like
gtk-fields.py, it prints JSON lines: where each widget's centre is on the root window once shown
({"at": name, "x": x, "y": y}) and each field's whole text whenever it changes ({"text": name, "value": text}).
It is started without QT_LINUX_ACCESSIBILITY_ALWAYS_ON: it speaks to the accessibility bus only if the
session's org.a11y.Status IsEnabled is on."""
import json
import os
import sys

from PyQt5 import QtCore, QtWidgets


def say(**fields):
    print(json.dumps(fields), flush=True)


app = QtWidgets.QApplication(sys.argv)
window = QtWidgets.QWidget()
window.setWindowTitle("Keypane Qt fields")
window.resize(480, 240)
window.move(*[int(n) for n in os.environ.get("KEYPANE_FIELDS_AT", "0,0").split(",")])
layout = QtWidgets.QVBoxLayout(window)
widgets = {"plain": QtWidgets.QLineEdit(), "password": QtWidgets.QLineEdit(), "button": QtWidgets.QPushButton("OK")}
widgets["password"].setEchoMode(QtWidgets.QLineEdit.Password)
for name, widget in widgets.items():
    layout.addWidget(widget)
    if isinstance(widget, QtWidgets.QLineEdit):
        widget.textChanged.connect(lambda text, name=name: say(text=name, value=text))


# Which widget has the keyboard focus, whenever one gets it ({"focus": name}).
app.focusChanged.connect(lambda old, new: [say(focus=name) for name, widget in widgets.items() if widget is new])


def report():
    for name, widget in widgets.items():
        centre = widget.mapToGlobal(widget.rect().center())
        say(at=name, x=centre.x(), y=centre.y())


window.show()
QtCore.QTimer.singleShot(500, report)
sys.exit(app.exec_())
