/* Handles and protocol interfaces: install, uninstall, reinstall (UEFI 2.10, 7.3). */
#include "handle.h"
#include "../services.h"
#include <ember/lib/str.h>
#include <ember/lib/guids.h>

struct list handle_list = LIST_INIT(handle_list);
UINT64 handle_generation = 1, driver_bindings_changed_at;
static struct list protocol_list = LIST_INIT(protocol_list);

/* Handles that passed the full check and are still alive, by a hash of their address:
 * every protocol service checks one to three handles, and asking the memory map whether a
 * handle's bytes are allocated costs about 300 instructions, a third of the driver model's
 * time at boot. A handle leaves the cache when it is freed, so a hit is always live. */
#define LOOKUP_CACHE_SLOTS 512
static struct handle *lookup_cache[LOOKUP_CACHE_SLOTS];

static UINTN lookup_slot(const void *h)
{
	return ((uintptr_t)h >> 4) % LOOKUP_CACHE_SLOTS;
}

struct handle *handle_lookup(EFI_HANDLE handle)
{
	struct handle *h = handle;

	if (h && lookup_cache[lookup_slot(h)] == h && h->signature == HANDLE_SIGNATURE)
		return h;
	if (!h || !mem_is_allocated(h, sizeof(*h)) || h->signature != HANDLE_SIGNATURE)
		return NULL;
	lookup_cache[lookup_slot(h)] = h;
	return h;
}

bool handle_is_valid(EFI_HANDLE handle)
{
	return handle_lookup(handle) != NULL;
}

void handle_changed(struct handle *h, const EFI_GUID *protocol)
{
	h->changed_at = ++handle_generation;
	if (guid_eq(protocol, &efi_driver_binding_protocol_guid))
		driver_bindings_changed_at = handle_generation;
}

struct protocol_entry *protocol_entry_find(const EFI_GUID *guid, bool create)
{
	struct protocol_entry *entry;

	list_for_each_entry (entry, &protocol_list, link)
		if (guid_eq(&entry->guid, guid))
			return entry;
	if (!create)
		return NULL;
	entry = pool_alloc(sizeof(*entry));
	if (!entry)
		return NULL;
	entry->guid = *guid;
	list_init(&entry->interfaces);
	list_init(&entry->notifies);
	list_add_tail(&entry->link, &protocol_list);
	return entry;
}

struct protocol_interface *protocol_interface_find(struct handle *h, const EFI_GUID *guid)
{
	struct protocol_interface *pif;
	uint64_t want[2], have[2];

	/* Compared here, not by a call per interface: every protocol service of every driver
	 * comes through this loop. */
	__builtin_memcpy(want, guid, sizeof(want));
	list_for_each_entry (pif, &h->interfaces, handle_link) {
		__builtin_memcpy(have, &pif->entry->guid, sizeof(have));
		if (have[0] == want[0] && have[1] == want[1])
			return pif;
	}
	return NULL;
}

void protocol_notify_forget_event(EFI_EVENT event)
{
	EFI_TPL old = tpl_raise(PROTOCOL_LOCK_TPL);
	struct protocol_entry *entry;
	struct protocol_notify *n, *tmp;

	list_for_each_entry (entry, &protocol_list, link)
		list_for_each_entry_safe (n, tmp, &entry->notifies, link)
			if (n->event == event) {
				list_del(&n->link);
				n->signature = 0;
				pool_free(n);
			}
	tpl_restore(old);
}

/* Tells everyone registered for a protocol that an interface arrived. */
static void protocol_notify_all(struct protocol_entry *entry)
{
	struct protocol_notify *n;

	list_for_each_entry (n, &entry->notifies, link)
		event_signal(n->event);
}

static EFI_STATUS install_locked(EFI_HANDLE *handle, const EFI_GUID *protocol, void *interface)
{
	struct handle *h = NULL;
	struct protocol_entry *entry;
	struct protocol_interface *pif;

	if (*handle) {
		h = handle_lookup(*handle);
		if (!h)
			return EFI_INVALID_PARAMETER;
		if (protocol_interface_find(h, protocol))
			return EFI_INVALID_PARAMETER;
	}
	entry = protocol_entry_find(protocol, true);
	pif = pool_alloc(sizeof(*pif));
	if (!entry || !pif)
		goto no_memory;
	if (!h) {
		h = pool_alloc(sizeof(*h));
		if (!h)
			goto no_memory;
		h->signature = HANDLE_SIGNATURE;
		h->settled_at = 0;
		list_init(&h->interfaces);
		list_add_tail(&h->link, &handle_list);
	}
	pif->signature = INTERFACE_SIGNATURE;
	pif->handle = h;
	pif->entry = entry;
	pif->interface = interface;
	list_init(&pif->opens);
	list_add_tail(&pif->handle_link, &h->interfaces);
	list_add_tail(&pif->entry_link, &entry->interfaces);
	handle_changed(h, protocol);
	*handle = h;
	protocol_notify_all(entry);
	return EFI_SUCCESS;
no_memory:
	pool_free(pif);
	return EFI_OUT_OF_RESOURCES;
}

EFI_STATUS protocol_install(EFI_HANDLE *handle, const EFI_GUID *protocol, void *interface)
{
	EFI_TPL old = tpl_raise(PROTOCOL_LOCK_TPL);
	EFI_STATUS status = install_locked(handle, protocol, interface);

	tpl_restore(old);
	return status;
}

/* Unlinks an interface from its protocol, moving notify positions that point at it. */
static void unlink_from_entry(struct protocol_interface *pif)
{
	struct protocol_notify *n;

	list_for_each_entry (n, &pif->entry->notifies, link)
		if (n->position == &pif->entry_link)
			n->position = pif->entry_link.prev;
	list_del(&pif->entry_link);
}

static void remove_interface(struct protocol_interface *pif)
{
	struct handle *h = pif->handle;

	handle_changed(h, &pif->entry->guid);
	unlink_from_entry(pif);
	list_del(&pif->handle_link);
	open_list_remove(pif, UINT32_MAX);
	pif->signature = 0;
	pool_free(pif);
	if (list_empty(&h->interfaces)) {
		list_del(&h->link);
		h->signature = 0;
		if (lookup_cache[lookup_slot(h)] == h)
			lookup_cache[lookup_slot(h)] = NULL;
		pool_free(h);
	}
}

/* Frees an interface nobody uses any more; ACCESS_DENIED (after reconnecting) if in use. */
static EFI_STATUS release_users(struct handle *h, struct protocol_interface *pif)
{
	EFI_STATUS status = protocol_disconnect_users(h, pif);

	if (!EFI_ERROR(status)) {
		open_list_remove(pif, EFI_OPEN_PROTOCOL_BY_HANDLE_PROTOCOL |
					  EFI_OPEN_PROTOCOL_GET_PROTOCOL |
					  EFI_OPEN_PROTOCOL_TEST_PROTOCOL);
		if (list_empty(&pif->opens))
			return EFI_SUCCESS;
	}
	/* Someone still holds it: put the drivers back and refuse. */
	driver_connect(h, NULL, NULL, true);
	return EFI_ACCESS_DENIED;
}

static struct protocol_interface *find_exact(EFI_HANDLE handle, const EFI_GUID *protocol,
					     void *interface)
{
	struct handle *h = handle_lookup(handle);
	struct protocol_interface *pif = h ? protocol_interface_find(h, protocol) : NULL;

	return pif && pif->interface == interface ? pif : NULL;
}

EFI_STATUS protocol_uninstall(EFI_HANDLE handle, const EFI_GUID *protocol, void *interface)
{
	EFI_TPL old = tpl_raise(PROTOCOL_LOCK_TPL);
	struct protocol_interface *pif = find_exact(handle, protocol, interface);
	EFI_STATUS status = EFI_NOT_FOUND;

	tpl_restore(old);
	if (!pif)
		return status;
	status = release_users(handle, pif);
	old = tpl_raise(PROTOCOL_LOCK_TPL);
	if (!EFI_ERROR(status)) {
		pif = find_exact(handle, protocol, interface);
		if (pif)
			remove_interface(pif);
	}
	tpl_restore(old);
	return status;
}

EFI_STATUS protocol_reinstall(EFI_HANDLE handle, const EFI_GUID *protocol, void *old_interface,
			      void *new_interface)
{
	EFI_TPL old = tpl_raise(PROTOCOL_LOCK_TPL);
	struct protocol_interface *pif = find_exact(handle, protocol, old_interface);
	EFI_STATUS status;

	tpl_restore(old);
	if (!pif)
		return EFI_NOT_FOUND;
	status = release_users(handle, pif);
	if (EFI_ERROR(status))
		return status;
	old = tpl_raise(PROTOCOL_LOCK_TPL);
	pif = find_exact(handle, protocol, old_interface);
	if (pif) {
		/* Move it to the end, so registrations see it as new. */
		handle_changed(pif->handle, protocol);
		unlink_from_entry(pif);
		pif->interface = new_interface;
		list_add_tail(&pif->entry_link, &pif->entry->interfaces);
	}
	tpl_restore(old);
	if (!pif)
		return EFI_NOT_FOUND;
	driver_connect(handle, NULL, NULL, true);
	old = tpl_raise(PROTOCOL_LOCK_TPL);
	protocol_notify_all(pif->entry);
	tpl_restore(old);
	return EFI_SUCCESS;
}

EFI_STATUS protocol_get(EFI_HANDLE handle, const EFI_GUID *protocol, void **interface)
{
	return protocol_open(handle, protocol, interface, core_image_handle, NULL,
			     EFI_OPEN_PROTOCOL_BY_HANDLE_PROTOCOL);
}

/* ---- Boot services entry points ---- */

EFI_STATUS EFIAPI efi_install_protocol_interface(EFI_HANDLE *handle, EFI_GUID *protocol,
						 EFI_INTERFACE_TYPE type, VOID *interface)
{
	if (!handle || !protocol || type != EFI_NATIVE_INTERFACE)
		return EFI_INVALID_PARAMETER;
	return protocol_install(handle, protocol, interface);
}

EFI_STATUS EFIAPI efi_uninstall_protocol_interface(EFI_HANDLE handle, EFI_GUID *protocol,
						   VOID *interface)
{
	if (!handle_lookup(handle) || !protocol)
		return EFI_INVALID_PARAMETER;
	return protocol_uninstall(handle, protocol, interface);
}

EFI_STATUS EFIAPI efi_reinstall_protocol_interface(EFI_HANDLE handle, EFI_GUID *protocol,
						   VOID *old_interface, VOID *new_interface)
{
	if (!handle_lookup(handle) || !protocol)
		return EFI_INVALID_PARAMETER;
	return protocol_reinstall(handle, protocol, old_interface, new_interface);
}

EFI_STATUS EFIAPI efi_handle_protocol(EFI_HANDLE handle, EFI_GUID *protocol, VOID **interface)
{
	return efi_open_protocol(handle, protocol, interface, core_image_handle, NULL,
				 EFI_OPEN_PROTOCOL_BY_HANDLE_PROTOCOL);
}
