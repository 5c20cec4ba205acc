/* Taps points of the keypane window, given as fractions of its width and height ("0.5,0.9"), with XTest, a
 * tenth of a second apart: a person typing on the keyboard, for scripts/order-file's trace. */
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/extensions/XTest.h>
#include <stdio.h>
#include <strings.h>
#include <unistd.h>

/* The largest window on screen of class keypane (not the small show button). */
static void find(Display *display, Window window, Window *best, int *area) {
    XClassHint hint;
    if (XGetClassHint(display, window, &hint)) {
        int named = (hint.res_class && strcasecmp(hint.res_class, "keypane") == 0)
            || (hint.res_name && strcasecmp(hint.res_name, "keypane") == 0);
        XFree(hint.res_name);
        XFree(hint.res_class);
        XWindowAttributes attributes;
        if (named && XGetWindowAttributes(display, window, &attributes) && attributes.map_state == IsViewable
            && attributes.width * attributes.height > *area) {
            *best = window;
            *area = attributes.width * attributes.height;
        }
    }
    Window root, parent, *children = 0;
    unsigned count = 0;
    if (XQueryTree(display, window, &root, &parent, &children, &count)) {
        for (unsigned i = 0; i < count; i++) find(display, children[i], best, area);
        if (children) XFree(children);
    }
}

int main(int count, char **arguments) {
    Display *display = XOpenDisplay(0);
    if (!display) { fprintf(stderr, "taps: cannot open the display\n"); return 1; }
    Window window = 0;
    int area = 0;
    find(display, DefaultRootWindow(display), &window, &area);
    XWindowAttributes attributes;
    if (!window || !XGetWindowAttributes(display, window, &attributes)) {
        fprintf(stderr, "taps: no keypane window\n");
        return 1;
    }
    int left, top;
    Window child;
    XTranslateCoordinates(display, window, DefaultRootWindow(display), 0, 0, &left, &top, &child);
    for (int i = 1; i < count; i++) {
        double fx, fy;
        if (sscanf(arguments[i], "%lf,%lf", &fx, &fy) != 2) { fprintf(stderr, "taps: bad point '%s'\n", arguments[i]); return 2; }
        int x = left + (int)(fx * attributes.width), y = top + (int)(fy * attributes.height);
        XTestFakeMotionEvent(display, -1, x, y, CurrentTime);
        XTestFakeButtonEvent(display, 1, True, CurrentTime);
        XTestFakeButtonEvent(display, 1, False, 40);
        XSync(display, False);
        usleep(100000);
    }
    XCloseDisplay(display);
    return 0;
}
