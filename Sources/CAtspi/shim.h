/* What Keypane uses of libatspi and libdbus, which it opens with dlopen (Accessibility/Libraries.swift)
 * and does not link. Declared here rather than taken from atspi.h and dbus.h, whose folders pkg-config
 * would give only together with the libraries to link: the types of the functions it calls, the opaque
 * types, the leading fields Keypane reads, the sizes it allocates, and the constants of the AT-SPI and
 * D-Bus specifications it names. GLib's own headers come through CPangoCairo.
 *
 * scripts/check-c-declarations compiles this header after atspi.h and dbus.h at every build and fails
 * the build when a declaration here differs from theirs. There KEYPANE_CHECK is defined, and what is
 * copied here rather than declared the same (a struct's first fields, a size, an enum as an int, a
 * constant) takes the name shim_NAME, to be compared with the real NAME. */
#include <glib-object.h>
#include <stdint.h>

#ifdef KEYPANE_CHECK
#define SHIM(name) shim_##name
#else
#define SHIM(name) name
#endif

/* libatspi */

typedef struct _AtspiAccessible AtspiAccessible;
typedef struct _AtspiEventListener AtspiEventListener;

/* An event: its first fields, as libatspi 2 lays them out. */
typedef struct {
    gchar *type;
    AtspiAccessible *source;
    gint detail1;
    gint detail2;
} SHIM(AtspiEvent);

typedef void (*AtspiEventListenerCB)(AtspiEvent *event, void *user_data);

/* An accessible object's first fields (AtspiObject), and its application's (AtspiApplication). */
typedef struct {
    GObject parent;
    GHashTable *hash;
    char *bus_name;
} SHIM(AtspiApplication);

typedef struct {
    GObject parent;
    SHIM(AtspiApplication) *app;
    char *path;
} SHIM(AtspiObject);

typedef gint SHIM(AtspiCoordType);
typedef gint SHIM(AtspiRole);
typedef gint SHIM(AtspiStateType);
static const SHIM(AtspiCoordType) SHIM(ATSPI_COORD_TYPE_SCREEN) = 0;
static const SHIM(AtspiRole) SHIM(ATSPI_ROLE_PASSWORD_TEXT) = 40;
static const SHIM(AtspiRole) SHIM(ATSPI_ROLE_SPIN_BUTTON) = 52;
static const SHIM(AtspiRole) SHIM(ATSPI_ROLE_TERMINAL) = 60;
static const SHIM(AtspiStateType) SHIM(ATSPI_STATE_EDITABLE) = 7;
static const SHIM(AtspiStateType) SHIM(ATSPI_STATE_MULTI_LINE) = 17;
static const SHIM(AtspiStateType) SHIM(ATSPI_STATE_READ_ONLY) = 43;

/* libdbus */

typedef struct DBusConnection DBusConnection;
typedef struct DBusMessage DBusMessage;
typedef struct DBusPendingCall DBusPendingCall;
typedef uint32_t dbus_bool_t;
/* The caller allocates errors and iterators (32 and 72 bytes on 64-bit systems); these are larger, and
 * Keypane reads no field of either. */
typedef struct { void *opaque[8]; } SHIM(DBusError);
typedef struct { void *opaque[16]; } SHIM(DBusMessageIter);
typedef gint SHIM(DBusBusType);
static const SHIM(DBusBusType) SHIM(DBUS_BUS_SESSION) = 0;
static const int SHIM(DBUS_MESSAGE_TYPE_ERROR) = 3;
/* A pending call's notification, and a free function for its data (dbus-pending-call.h, dbus-memory.h). */
typedef void (*DBusPendingCallNotifyFunction)(DBusPendingCall *pending, void *user_data);
typedef void (*DBusFreeFunction)(void *memory);

/* The functions Keypane calls, each through a pointer of the type named after it with _fn. */

typedef int (*atspi_init_fn)(void);
typedef void (*atspi_set_timeout_fn)(gint val, gint startup_time);
typedef GType (*atspi_event_get_type_fn)(void);
typedef AtspiEventListener *(*atspi_event_listener_new_fn)(AtspiEventListenerCB callback, gpointer user_data,
                                                           GDestroyNotify callback_destroyed);
typedef gboolean (*atspi_event_listener_register_fn)(AtspiEventListener *listener, const gchar *event_type,
                                                     GError **error);
typedef gboolean (*atspi_event_listener_deregister_fn)(AtspiEventListener *listener, const gchar *event_type,
                                                       GError **error);
/* libatspi's connection to the accessibility bus. */
typedef DBusConnection *(*atspi_get_a11y_bus_fn)(void);

typedef DBusConnection *(*dbus_bus_get_fn)(DBusBusType type, DBusError *error);
typedef DBusMessage *(*dbus_connection_send_with_reply_and_block_fn)(DBusConnection *connection, DBusMessage *message,
                                                                    int timeout_milliseconds, DBusError *error);
typedef void (*dbus_connection_set_exit_on_disconnect_fn)(DBusConnection *connection, dbus_bool_t exit_on_disconnect);
typedef void (*dbus_connection_unref_fn)(DBusConnection *connection);
typedef void (*dbus_error_init_fn)(DBusError *error);
typedef void (*dbus_error_free_fn)(DBusError *error);
typedef DBusMessage *(*dbus_message_new_method_call_fn)(const char *bus_name, const char *path, const char *iface,
                                                        const char *method);
typedef void (*dbus_message_unref_fn)(DBusMessage *message);
typedef int (*dbus_message_get_type_fn)(DBusMessage *message);
typedef dbus_bool_t (*dbus_message_iter_init_fn)(DBusMessage *message, DBusMessageIter *iter);
typedef void (*dbus_message_iter_init_append_fn)(DBusMessage *message, DBusMessageIter *iter);
typedef int (*dbus_message_iter_get_arg_type_fn)(DBusMessageIter *iter);
typedef void (*dbus_message_iter_get_basic_fn)(DBusMessageIter *iter, void *value);
typedef void (*dbus_message_iter_recurse_fn)(DBusMessageIter *iter, DBusMessageIter *sub);
typedef dbus_bool_t (*dbus_message_iter_append_basic_fn)(DBusMessageIter *iter, int type, const void *value);
typedef dbus_bool_t (*dbus_message_iter_open_container_fn)(DBusMessageIter *iter, int type,
                                                           const char *contained_signature, DBusMessageIter *sub);
typedef dbus_bool_t (*dbus_message_iter_close_container_fn)(DBusMessageIter *iter, DBusMessageIter *sub);
typedef dbus_bool_t (*dbus_message_iter_next_fn)(DBusMessageIter *iter);
typedef dbus_bool_t (*dbus_connection_send_with_reply_fn)(DBusConnection *connection, DBusMessage *message,
                                                          DBusPendingCall **pending_return, int timeout_milliseconds);
typedef dbus_bool_t (*dbus_pending_call_set_notify_fn)(DBusPendingCall *pending, DBusPendingCallNotifyFunction function,
                                                       void *user_data, DBusFreeFunction free_user_data);
typedef DBusMessage *(*dbus_pending_call_steal_reply_fn)(DBusPendingCall *pending);
typedef void (*dbus_pending_call_unref_fn)(DBusPendingCall *pending);
typedef void (*dbus_pending_call_cancel_fn)(DBusPendingCall *pending);
