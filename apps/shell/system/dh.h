/* The pieces of dh: what it says about protocols, and about the driver model. */
#ifndef SHELL_SYSTEM_DH_H
#define SHELL_SYSTEM_DH_H

#include "sys.h"

/* The protocol's name for listings: its registered name, else its GUID in text (buf holds
 * at least 40 characters). */
const CHAR16 *dh_protocol_name(struct shell *sh, const EFI_GUID *guid, CHAR16 buf[40]);

/* Prints indented lines about one protocol instance of a handle (what it is: a device
 * path's text, a block device's geometry ...); nothing for protocols it does not know. */
void dh_protocol_details(struct shell *sh, EFI_HANDLE h, const EFI_GUID *guid, void *iface);

/* Prints who opened the protocol: agent, controller, count and attributes. */
void dh_open_info(struct shell *sh, EFI_HANDLE h, EFI_GUID *guid);

/* Prints the driver-model view of a handle: as a controller (name, type, managing
 * drivers, parents, children) and, for a driver-binding handle, as a driver. */
void dh_driver_model(struct shell *sh, EFI_HANDLE h);

#endif
