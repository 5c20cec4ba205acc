/* Sources/CAtspi/shim.h against libatspi's and libdbus's own headers, compiled (not linked) by
 * scripts/check-c-declarations, which adds a SAME_FUNCTION line for each function type shim.h declares.
 * A declaration that differs stops the compile with a message that names it. */
#include <atspi/atspi.h>
#include <dbus/dbus.h>
#include <stddef.h>

#define KEYPANE_CHECK
#include "shim.h"

/* A pointer of shim.h's type for the function can hold the function: the same result and parameters. */
#define SAME_FUNCTION(function) \
    _Static_assert(__builtin_types_compatible_p(__typeof__(&function), function##_fn), \
                   "shim.h: " #function "_fn is not the type of " #function " in its header")

#define FIELD_TYPE(type, field) __typeof__(((type *)0)->field)

/* A field copied from a struct: at the same place, of the same type. */
#define SAME_FIELD(type, field) \
    _Static_assert(offsetof(shim_##type, field) == offsetof(type, field), \
                   "shim.h: " #type "." #field " is not where its header puts it"); \
    _Static_assert(__builtin_types_compatible_p(FIELD_TYPE(shim_##type, field), FIELD_TYPE(type, field)), \
                   "shim.h: " #type "." #field " is not of the type its header gives it")

/* The first fields of a struct, read through a pointer to the real one: no more than it. */
#define FIRST_FIELDS(type) \
    _Static_assert(sizeof(shim_##type) <= sizeof(type), "shim.h: " #type " is larger than in its header")

/* A struct Keypane allocates and the library fills in: room and alignment for the real one. */
#define ROOM_FOR(type) \
    _Static_assert(sizeof(shim_##type) >= sizeof(type) && _Alignof(shim_##type) >= _Alignof(type), \
                   "shim.h: " #type " is smaller or less aligned than in its header")

/* An enum's values as ints: the same size. */
#define SAME_SIZE(type) \
    _Static_assert(sizeof(shim_##type) == sizeof(type), "shim.h: " #type " is not the size of its header's")

#define SAME_VALUE(constant) \
    _Static_assert(shim_##constant == constant, "shim.h: " #constant " is not its header's value")

FIRST_FIELDS(AtspiEvent);
SAME_FIELD(AtspiEvent, type);
SAME_FIELD(AtspiEvent, source);
SAME_FIELD(AtspiEvent, detail1);
SAME_FIELD(AtspiEvent, detail2);

FIRST_FIELDS(AtspiApplication);
SAME_FIELD(AtspiApplication, parent);
SAME_FIELD(AtspiApplication, hash);
SAME_FIELD(AtspiApplication, bus_name);

FIRST_FIELDS(AtspiObject);
SAME_FIELD(AtspiObject, parent);
SAME_FIELD(AtspiObject, path);
/* The application: a pointer to shim.h's copy of the real one, which is checked above. */
_Static_assert(offsetof(shim_AtspiObject, app) == offsetof(AtspiObject, app),
               "shim.h: AtspiObject.app is not where its header puts it");
_Static_assert(__builtin_types_compatible_p(FIELD_TYPE(shim_AtspiObject, app), shim_AtspiApplication *)
               && __builtin_types_compatible_p(FIELD_TYPE(AtspiObject, app), AtspiApplication *),
               "shim.h: AtspiObject.app is not of the type its header gives it");

SAME_SIZE(AtspiCoordType);
SAME_SIZE(AtspiRole);
SAME_SIZE(AtspiStateType);
SAME_VALUE(ATSPI_COORD_TYPE_SCREEN);
SAME_VALUE(ATSPI_ROLE_PASSWORD_TEXT);
SAME_VALUE(ATSPI_ROLE_SPIN_BUTTON);
SAME_VALUE(ATSPI_ROLE_TERMINAL);
SAME_VALUE(ATSPI_STATE_EDITABLE);
SAME_VALUE(ATSPI_STATE_MULTI_LINE);
SAME_VALUE(ATSPI_STATE_READ_ONLY);

ROOM_FOR(DBusError);
ROOM_FOR(DBusMessageIter);
SAME_SIZE(DBusBusType);
SAME_VALUE(DBUS_BUS_SESSION);
SAME_VALUE(DBUS_MESSAGE_TYPE_ERROR);
