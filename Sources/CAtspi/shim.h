#include <atspi/atspi.h>
#include <dbus/dbus.h>
