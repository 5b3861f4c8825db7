/* rt-virtual's pieces: the checks it counts (main.c) and the authenticated writes
 * (auth.c). */
#ifndef APPS_RT_VIRTUAL_H
#define APPS_RT_VIRTUAL_H

#include "../lib/app.h"

/* Counts a check; prints what failed. */
void rtv_check(bool ok, const char *what);

/* Before ExitBootServices: reads the keys and signed updates from the volume holding
 * PK.auth and enrols PK, KEK, db and a private variable; false when no volume holds them. */
bool rtv_auth_prepare(void);

/* In virtual mode: a db append signed by the KEK, a db update by an unknown key, a dbx
 * update, and the private variable's updates by its owner and by another signer. */
void rtv_auth_check(EFI_RUNTIME_SERVICES *rt);

#endif
