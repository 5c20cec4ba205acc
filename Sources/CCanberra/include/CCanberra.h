#ifndef KEYPANE_CCANBERRA_H
#define KEYPANE_CCANBERRA_H

/* libcanberra, opened with dlopen by the sound thread once the first frame is on screen: the program is
 * not linked with it, so its libraries (and the sound server's, which it loads in turn) cost nothing at
 * start-up. Only canberra.h's types and names are used here. */
#include <canberra.h>

/* The functions Keypane calls. */
typedef struct keypane_canberra {
    int (*context_create)(ca_context **context);
    int (*context_destroy)(ca_context *context);
    int (*context_set_driver)(ca_context *context, const char *driver);
    int (*context_change_props_full)(ca_context *context, ca_proplist *properties);
    int (*context_open)(ca_context *context);
    int (*context_cache_full)(ca_context *context, ca_proplist *properties);
    int (*context_play_full)(ca_context *context, uint32_t id, ca_proplist *properties,
                             ca_finish_callback_t callback, void *userdata);
    int (*proplist_create)(ca_proplist **list);
    int (*proplist_destroy)(ca_proplist *list);
    int (*proplist_sets)(ca_proplist *list, const char *key, const char *value);
    const char *(*strerror)(int code);
} keypane_canberra;

/* Opens libcanberra.so.0 the first time and finds its functions; NULL when it cannot, with what went
 * wrong in *error (dlerror's text). Called from one thread. */
const keypane_canberra *keypane_canberra_load(const char **error);

#endif
