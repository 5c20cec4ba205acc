/* What Keypane uses of libatspi and libdbus, which it opens with dlopen (Accessibility/Libraries.swift)
 * and does not link. Declared here rather than taken from atspi.h and dbus.h, whose folders pkg-config
 * would give only together with the libraries to link: the opaque types, the leading fields Keypane
 * reads, the sizes it allocates, and the constants of the AT-SPI and D-Bus specifications it names.
 * GLib's own headers come through CPangoCairo. */
#include <glib-object.h>
#include <stdint.h>

typedef struct _AtspiAccessible AtspiAccessible;
typedef struct _AtspiEventListener AtspiEventListener;

/* An event: its first fields, as libatspi 2 lays them out. */
typedef struct {
    gchar *type;
    AtspiAccessible *source;
    gint detail1;
    gint detail2;
} AtspiEvent;

typedef void (*AtspiEventListenerCB)(AtspiEvent *event, void *user_data);

/* An accessible object's first fields (AtspiObject), and its application's (AtspiApplication). */
typedef struct {
    GObject parent;
    GHashTable *hash;
    char *bus_name;
} AtspiApplication;

typedef struct {
    GObject parent;
    AtspiApplication *app;
    char *path;
} AtspiObject;

typedef gint AtspiCoordType;
typedef gint AtspiRole;
typedef gint AtspiStateType;
static const AtspiCoordType ATSPI_COORD_TYPE_SCREEN = 0;
static const AtspiRole ATSPI_ROLE_PASSWORD_TEXT = 40;
static const AtspiRole ATSPI_ROLE_SPIN_BUTTON = 52;
static const AtspiRole ATSPI_ROLE_TERMINAL = 60;
static const AtspiStateType ATSPI_STATE_EDITABLE = 7;
static const AtspiStateType ATSPI_STATE_MULTI_LINE = 17;
static const AtspiStateType ATSPI_STATE_READ_ONLY = 43;

/* libdbus: the caller allocates errors and iterators (32 and 72 bytes on 64-bit systems); these are
 * larger, and Keypane reads no field of either. */
typedef uint32_t dbus_bool_t;
typedef struct { void *opaque[8]; } DBusError;
typedef struct { void *opaque[16]; } DBusMessageIter;
typedef gint DBusBusType;
static const DBusBusType DBUS_BUS_SESSION = 0;
/* A pending call's notification, and a free function for its data (dbus-pending-call.h, dbus-memory.h). */
typedef void (*DBusPendingCallNotifyFunction)(void *pending, void *user_data);
typedef void (*DBusFreeFunction)(void *memory);
static const int DBUS_MESSAGE_TYPE_ERROR = 3;
