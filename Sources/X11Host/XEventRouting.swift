internal import CX11
internal import CXInput2
internal import CXRandR
public import EventLoop
internal import KeyboardCore
internal import KeyboardModel
internal import Typing

/// The X connection as the event loop's first source: its turn reads every event and routes each to what
/// handles it; the end of each round (its `prepare`) draws what changed, once, and flushes.
extension KeyboardHost: EventSource {
    public func prepare(now: Double) -> Interest {
        // The word changed this round: the worker decodes it while the keystroke is already on its way.
        keyboard.endOfRound()
        // Pixels once per round of events: a press and release read together draw only their outcome.
        let drawing = screen.painter.hasPending
        if drawing {
            screen.painter.drawPending(keyboard.engine.geometry, keyboard.engine.state, handle: screen.placement.handleRect)
        }
        drawingAhead.replan(afterDrawing: drawing)
        // A keymap or group change is read now, while nobody waits, not on the next keystroke.
        screen.injector.prepare()
        XFlush(display)
        // Drawing can wait for a reply, and Xlib queues the events that arrive meanwhile: they are read
        // already, so the socket would not wake poll for them.
        let queued = XEventsQueued(display, QueuedAlready) > 0
        return .reading(connection.fileDescriptor, deadline: queued ? now : nil)
    }

    public func turn(_ ready: [Readiness], now: Double) {
        memoryRest.busy(at: now)
        // Clicks and touches anywhere first: a tap's raw press came before its own.
        outsidePresses?.read()
        // One read of the socket, then the queue: XPending would read again before each event. What comes
        // meanwhile is read by the flush in `prepare`, or wakes poll.
        var queued = XEventsQueued(display, QueuedAfterReading)
        while queued > 0 {
            var event = XEvent()
            XNextEvent(display, &event)
            route(&event)
            queued = XQLength(display)
        }
    }

    private func route(_ event: inout XEvent) {
        let type = event.type
        if screen.settings.handle(event) { return }
        if type == ClientMessage, screen.injector.takeAnswer(window: event.xclient.window, type: event.xclient.message_type,
                                                      data: event.xclient.data.l) { return }
        if let showButton = screen.showButton, event.xany.window == showButton.window {
            showButton.handle(event)
            return
        }
        if screen.keyCapture.handle(event) { return }
        if type == SelectionNotify, screen.clipboard.handle(event) { return }
        if let scanSwitches = screen.scanSwitches, event.xany.window == connection.rootWindow,
           [KeyPress, KeyRelease, ButtonPress, ButtonRelease].contains(type) {
            // A scanning switch (grabbed on the root): the pick switch's release types a key it did not hold
            // long enough to open.
            if let pick = scanSwitches.switchPressed(event) {
                keyboard.scanSwitchPressed(pick: pick)
            } else if scanSwitches.switchReleased(event) == true {
                keyboard.scanSwitchReleased()
            }
            // The switch is up and its grab over: what it picked meanwhile goes to the focused window now.
            screen.typeWhatSwitchesHeld()
            return
        }
        switch type {
        case Expose:
            let e = event.xexpose
            window.present([Rect(x: Int(e.x), y: Int(e.y), width: Int(e.width), height: Int(e.height))])
        case ButtonPress, ButtonRelease:
            let e = event.xbutton
            let now = EventLoop.monotonicNow()
            if type == ButtonPress {
                screen.caret.pressedKeyboard(stamp: e.time)
                outsidePresses?.keyboardPressed(stamp: e.time, now: now)
            } else {
                outsidePresses?.keyboardReleased(now: now)
            }
            if e.button == 1 {
                if type == ButtonPress, screen.placement.beginDrag(touch: InputEvent.pointer, y: Double(e.y),
                                                            root: (Int(e.x_root), Int(e.y_root))) { return }
                if type == ButtonRelease, screen.placement.draggingTouch == InputEvent.pointer {
                    screen.placement.endDrag()
                    return
                }
            }
            let kind: InputDecoding.CoreKind = type == ButtonPress ? .buttonPress : .buttonRelease
            let time = serverClock.time(ofStamp: e.time, readAt: now)
            if let input = InputDecoding.pointer(kind, button: e.button, state: e.state, x: e.x, y: e.y, time: time) {
                keyboard.handle(input)
            }
        case MotionNotify:
            // Only the latest position matters, of the motions queued one after the other. Never one past
            // a press or release: read late in a batch (the keyboard was busy), the last motion of a later
            // touch went to this one, and a held key chose another key's alternate.
            var next = XEvent()
            while XEventsQueued(display, QueuedAlready) > 0 {
                XPeekEvent(display, &next)
                guard next.type == MotionNotify, next.xmotion.window == window.window else { break }
                XNextEvent(display, &event)
            }
            let e = event.xmotion
            if screen.placement.draggingTouch == InputEvent.pointer {
                screen.placement.continueDrag(root: (Int(e.x_root), Int(e.y_root)))
                return
            }
            let time = serverClock.time(ofStamp: e.time, readAt: EventLoop.monotonicNow())
            if let input = InputDecoding.pointer(.motion, button: 0, state: e.state, x: e.x, y: e.y, time: time) {
                keyboard.handle(input)
            } else {
                // No button down: a pointer resting on a key, for dwell.
                keyboard.hover(x: Double(e.x), y: Double(e.y), time: time)
            }
        case LeaveNotify:
            keyboard.hoverEnded()
        case GenericEvent:
            routeGeneric(&event)
        case MappingNotify:
            let first = Int(event.xmapping.first_keycode), count = Int(event.xmapping.count)
            if event.xmapping.request == MappingKeyboard || event.xmapping.request == MappingModifier {
                XRefreshKeyboardMapping(&event.xmapping)
                screen.injector.keymapChanged(first: event.xmapping.request == MappingModifier ? 0 : first,
                                       count: event.xmapping.request == MappingModifier ? 256 : count)
            }
        case PropertyNotify:
            _ = screen.caret.propertyChanged(window: event.xproperty.window, atom: event.xproperty.atom)
        case ClientMessage where event.xclient.message_type == commandAtom:
            switch Command(rawValue: event.xclient.data.l.0) {
            case .show: keyboard.show()
            case .hide: keyboard.hide()
            case .toggle: keyboard.toggle()
            case nil: break
            }
        case ClientMessage where UInt(event.xclient.data.l.0) == deleteWindowAtom:
            loop.stop()
        case ConfigureNotify where event.xconfigure.window == connection.rootWindow:
            XRRUpdateConfiguration(&event)
            screenChanging()
        default:
            if randrEventBase != 0 && type == randrEventBase + RRScreenChangeNotify {
                XRRUpdateConfiguration(&event)
                screenChanging()
            } else if randrEventBase != 0 && type == randrEventBase + RRNotify {
                screenChanging()
            } else if xkbEventBase != 0 && type == xkbEventBase {
                screen.injector.groupChanged()
            }
        }
    }

    /// A click or touch anywhere (`OutsidePresses`), for `CaretWatch` and the keyboard's showing.
    func routeAnywhere(_ press: OutsidePresses.Press) {
        let now = EventLoop.monotonicNow()
        screen.caret.pressedSomewhere(stamp: press.stamp, isClick: press.kind == .click, isKeyboards: press.isKeyboards,
                                      now: now)
        keyboard.pressedAnywhere(by: press.kind == .click ? .click : .touch)
    }

    /// XInput 2: touches on the keyboard, and raw key presses of the physical keyboards.
    private func routeGeneric(_ event: inout XEvent) {
        guard let opcode = window.xiOpcode, event.xcookie.extension == opcode,
              XGetEventData(display, &event.xcookie) != 0 else { return }
        defer { XFreeEventData(display, &event.xcookie) }
        let evtype = event.xcookie.evtype
        let now = EventLoop.monotonicNow()
        if evtype == XI_RawKeyPress {
            // Selected only from physical keyboards (KeyboardWindow.selectRaw); a scanning switch is no typing.
            let raw = event.xcookie.data.assumingMemoryBound(to: XIRawEvent.self).pointee
            if screen.scanSwitches?.isSwitch(keycode: Int(raw.detail)) != true, !screen.keyCapture.isWaiting {
                keyboard.physicalKeyPressed()
            }
            return
        }
        if evtype == XI_HierarchyChanged {
            window.devicesChanged()
            keyboard.touchscreensChanged()
            return
        }
        let device = event.xcookie.data.assumingMemoryBound(to: XIDeviceEvent.self).pointee
        guard device.event == window.window else { return }
        if device.evtype == XI_TouchBegin {
            screen.caret.pressedKeyboard(stamp: device.time)
            outsidePresses?.keyboardPressed(stamp: device.time, now: now)
        } else if device.evtype == XI_TouchEnd {
            outsidePresses?.keyboardReleased(now: now)
        }
        let root = (Int(device.root_x), Int(device.root_y))
        let touch = Int(device.detail)
        switch device.evtype {
        case XI_TouchBegin where screen.placement.beginDrag(touch: touch, y: device.event_y, root: root):
            return
        case XI_TouchUpdate where screen.placement.draggingTouch == touch:
            screen.placement.continueDrag(root: root)
            return
        case XI_TouchEnd where screen.placement.draggingTouch == touch:
            screen.placement.endDrag()
            return
        default: break
        }
        guard let input = InputDecoding.touch(evtype: device.evtype, detail: device.detail, flags: device.flags,
                                              x: device.event_x, y: device.event_y,
                                              time: serverClock.time(ofStamp: device.time, readAt: now)) else { return }
        keyboard.handle(input)
    }

    /// A screen event: dock again once the burst it belongs to has settled.
    private func screenChanging() {
        screenSettled.set(at: EventLoop.monotonicNow() + Self.screenSettle)
    }
}
