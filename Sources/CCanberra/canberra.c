#include "CCanberra.h"

#include <dlfcn.h>
#include <stddef.h>

static keypane_canberra functions;
static int loaded;

#define FIND(field, name) \
    if (!(*(void **)&functions.field = dlsym(library, name))) { *error = dlerror(); return NULL; }

const keypane_canberra *keypane_canberra_load(const char **error) {
    if (loaded) return &functions;
    void *library = dlopen("libcanberra.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        *error = dlerror();
        return NULL;
    }
    FIND(context_create, "ca_context_create")
    FIND(context_destroy, "ca_context_destroy")
    FIND(context_set_driver, "ca_context_set_driver")
    FIND(context_change_props_full, "ca_context_change_props_full")
    FIND(context_open, "ca_context_open")
    FIND(context_cache_full, "ca_context_cache_full")
    FIND(context_play_full, "ca_context_play_full")
    FIND(proplist_create, "ca_proplist_create")
    FIND(proplist_destroy, "ca_proplist_destroy")
    FIND(proplist_sets, "ca_proplist_sets")
    FIND(strerror, "ca_strerror")
    loaded = 1;
    return &functions;
}
