#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/Xatom.h>
#include <X11/XKBlib.h>

/* XKB's keymap accessors are function-like macros, which Swift cannot call. */

static inline int CX11_keyNumGroups(XkbDescPtr xkb, int keycode) {
    return XkbKeyNumGroups(xkb, keycode);
}

static inline int CX11_keyGroupWidth(XkbDescPtr xkb, int keycode, int group) {
    return XkbKeyGroupWidth(xkb, keycode, group);
}

static inline KeySym CX11_keySym(XkbDescPtr xkb, int keycode, int group, int level) {
    return XkbKeySymEntry(xkb, keycode, level, group);
}

/* The real modifiers that select `level` of a key in `group`, without Lock;
   -1 when no modifier combination reaches that level. */
static inline long CX11_levelModifiers(XkbDescPtr xkb, int keycode, int group, int level) {
    if (level == 0) return 0;
    XkbKeyTypePtr type = XkbKeyKeyType(xkb, keycode, group);
    long best = -1;
    for (int i = 0; i < type->map_count; i++) {
        XkbKTMapEntryPtr entry = &type->map[i];
        if (!entry->active || entry->level != level) continue;
        unsigned mask = entry->mods.mask;
        if (mask & LockMask) continue;
        if (best < 0 || __builtin_popcount(mask) < __builtin_popcount((unsigned)best)) best = mask;
    }
    return best;
}

/* The ICCCM size and WM hints flags, and XkbEvent fields, are plain enough; this reads an
   XkbEvent's subtype, which Swift sees only through the union. */
static inline int CX11_xkbEventType(const XEvent *event) {
    return ((const XkbAnyEvent *)event)->xkb_type;
}
