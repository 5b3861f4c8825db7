/* The protocol database (UEFI 2.10, section 7.3): handles carry protocol interfaces; each
 * interface keeps the list of agents that opened it; each protocol GUID keeps its
 * interfaces (in install order) and its notification registrations. */
#ifndef CORE_HANDLE_HANDLE_H
#define CORE_HANDLE_HANDLE_H

#include <ember/core/core.h>
#include <ember/lib/list.h>

#define HANDLE_SIGNATURE SIGNATURE_32('h', 'n', 'd', 'l')
#define INTERFACE_SIGNATURE SIGNATURE_32('p', 'i', 'f', 'c')
#define NOTIFY_SIGNATURE SIGNATURE_32('p', 'n', 't', 'f')
#define PROTOCOL_LOCK_TPL TPL_NOTIFY

struct handle {
	UINT32 signature;
	struct list link;	/* all handles, in creation order */
	struct list interfaces; /* struct protocol_interface.handle_link */
	/* For ConnectController's passes over every handle (core/driver/connect.c): when its
	 * protocols or their drivers last changed, and when every driver last declined it
	 * (0: not since it changed); both are handle_generation values. */
	UINT64 changed_at, settled_at;
};

struct protocol_entry {
	EFI_GUID guid;
	struct list link;	/* all protocol entries */
	struct list interfaces; /* struct protocol_interface.entry_link, install order */
	struct list notifies;	/* struct protocol_notify.link */
};

struct protocol_interface {
	UINT32 signature;
	struct handle *handle;
	struct list handle_link;
	struct protocol_entry *entry;
	struct list entry_link;
	void *interface;
	struct list opens; /* struct open_entry.link */
};

struct open_entry {
	struct list link;
	EFI_HANDLE agent;
	EFI_HANDLE controller;
	UINT32 attributes;
	UINT32 count;
};

struct protocol_notify {
	UINT32 signature;
	struct protocol_entry *entry;
	EFI_EVENT event;
	struct list link;
	struct list *position; /* the last interface handed out by ByRegisterNotify */
};

extern struct list handle_list;
/* Counts the changes to the database that can change what a driver's Supported says: an
 * interface installed, removed or replaced, a driver's open of one closed. */
extern UINT64 handle_generation;
/* The handle_generation at which a driver binding last came or went. */
extern UINT64 driver_bindings_changed_at;

/* Records a change of h's protocol (interfaces or who holds them BY_DRIVER). */
void handle_changed(struct handle *h, const EFI_GUID *protocol);

struct handle *handle_lookup(EFI_HANDLE handle);
struct protocol_entry *protocol_entry_find(const EFI_GUID *guid, bool create);
struct protocol_interface *protocol_interface_find(struct handle *h, const EFI_GUID *guid);
/* The registration behind a caller's Registration pointer, or NULL. */
struct protocol_notify *protocol_notify_lookup(void *registration);
/* The interface after a registration's position (NULL when none); advance moves it on. */
struct protocol_interface *protocol_notify_next(struct protocol_notify *n, bool advance);

/* Removes open entries of the given attribute kinds; returns how many went. */
UINTN open_list_remove(struct protocol_interface *pif, UINT32 attribute_mask);
/* Disconnects every driver that has the interface open BY_DRIVER; locks are not held. */
EFI_STATUS protocol_disconnect_users(struct handle *h, struct protocol_interface *pif);

#endif
