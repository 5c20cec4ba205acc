#include <cairo-xlib.h>
