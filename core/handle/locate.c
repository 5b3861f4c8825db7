/* Finding handles and interfaces (UEFI 2.10, section 7.3): LocateHandle(Buffer),
 * LocateProtocol, LocateDevicePath, RegisterProtocolNotify, ProtocolsPerHandle. */
#include "handle.h"
#include "../event/event.h"
#include "../services.h"
#include <ember/core/devpath.h>
#include <ember/lib/str.h>
#include <ember/lib/guids.h>

struct protocol_notify *protocol_notify_lookup(void *registration)
{
	struct protocol_notify *n = registration;

	if (!n || !mem_is_allocated(n, sizeof(*n)) || n->signature != NOTIFY_SIGNATURE)
		return NULL;
	return n;
}

struct protocol_interface *protocol_notify_next(struct protocol_notify *n, bool advance)
{
	struct list *next = n->position->next;

	if (next == &n->entry->interfaces)
		return NULL;
	if (advance)
		n->position = next;
	return list_entry(next, struct protocol_interface, entry_link);
}

static EFI_STATUS register_notify(const EFI_GUID *protocol, EFI_EVENT event, void **registration)
{
	struct protocol_entry *entry = protocol_entry_find(protocol, true);
	struct protocol_notify *n = pool_alloc(sizeof(*n));

	if (!entry || !n) {
		pool_free(n);
		return EFI_OUT_OF_RESOURCES;
	}
	n->signature = NOTIFY_SIGNATURE;
	n->entry = entry;
	n->event = event;
	/* Start at the end: only interfaces installed from now on are news. */
	n->position = entry->interfaces.prev;
	list_add_tail(&n->link, &entry->notifies);
	*registration = n;
	return EFI_SUCCESS;
}

/* Collects the handles a search matches into buffer (up to capacity); returns the count. */
static UINTN search(EFI_LOCATE_SEARCH_TYPE type, const EFI_GUID *protocol,
		    struct protocol_notify *n, EFI_HANDLE *buffer, UINTN capacity)
{
	UINTN found = 0;

	if (type == AllHandles) {
		struct handle *h;
		list_for_each_entry (h, &handle_list, link) {
			if (found < capacity)
				buffer[found] = h;
			found++;
		}
	} else if (type == ByProtocol) {
		struct protocol_entry *entry = protocol_entry_find(protocol, false);
		struct protocol_interface *pif;
		if (entry)
			list_for_each_entry (pif, &entry->interfaces, entry_link) {
				if (found < capacity)
					buffer[found] = pif->handle;
				found++;
			}
	} else {
		/* ByRegisterNotify hands out one new handle per call. */
		struct protocol_interface *pif = protocol_notify_next(n, false);
		if (pif) {
			if (capacity)
				buffer[0] = pif->handle;
			found = 1;
		}
	}
	return found;
}

static EFI_STATUS locate_handle(EFI_LOCATE_SEARCH_TYPE type, const EFI_GUID *protocol,
				void *search_key, UINTN *buffer_size, EFI_HANDLE *buffer)
{
	struct protocol_notify *n = NULL;
	UINTN found, capacity = *buffer_size / sizeof(EFI_HANDLE);

	if (type == ByRegisterNotify) {
		n = protocol_notify_lookup(search_key);
		if (!n)
			return EFI_INVALID_PARAMETER;
	} else if (type == ByProtocol) {
		if (!protocol)
			return EFI_INVALID_PARAMETER;
	} else if (type != AllHandles) {
		return EFI_INVALID_PARAMETER;
	}
	found = search(type, protocol, n, buffer, buffer ? capacity : 0);
	if (found == 0)
		return EFI_NOT_FOUND;
	if (found > capacity) {
		*buffer_size = found * sizeof(EFI_HANDLE);
		return EFI_BUFFER_TOO_SMALL;
	}
	*buffer_size = found * sizeof(EFI_HANDLE);
	if (n)
		protocol_notify_next(n, true);
	return EFI_SUCCESS;
}

EFI_STATUS handle_locate_buffer(EFI_LOCATE_SEARCH_TYPE type, const EFI_GUID *protocol,
				void *search_key, UINTN *count, EFI_HANDLE **buffer)
{
	EFI_TPL old = tpl_raise(PROTOCOL_LOCK_TPL);
	UINTN size = 0;
	EFI_STATUS status = locate_handle(type, protocol, search_key, &size, NULL);

	*buffer = NULL;
	*count = 0;
	if (status == EFI_BUFFER_TOO_SMALL) {
		*buffer = pool_alloc_typed(EfiBootServicesData, size);
		status = *buffer ? locate_handle(type, protocol, search_key, &size, *buffer)
				 : EFI_OUT_OF_RESOURCES;
		if (EFI_ERROR(status)) {
			pool_free(*buffer);
			*buffer = NULL;
		} else {
			*count = size / sizeof(EFI_HANDLE);
		}
	}
	tpl_restore(old);
	return status;
}

EFI_STATUS protocol_locate(const EFI_GUID *protocol, void **interface)
{
	EFI_TPL old = tpl_raise(PROTOCOL_LOCK_TPL);
	struct protocol_entry *entry = protocol_entry_find(protocol, false);
	EFI_STATUS status = EFI_NOT_FOUND;

	*interface = NULL;
	if (entry && !list_empty(&entry->interfaces)) {
		*interface =
		    list_first_entry(&entry->interfaces, struct protocol_interface, entry_link)
			->interface;
		status = EFI_SUCCESS;
	}
	tpl_restore(old);
	return status;
}

/* The handle with the protocol whose device path is the longest prefix of *path. */
EFI_STATUS handle_locate_device_path(const EFI_GUID *protocol, EFI_DEVICE_PATH_PROTOCOL **path,
				     EFI_HANDLE *device)
{
	EFI_TPL old = tpl_raise(PROTOCOL_LOCK_TPL);
	struct protocol_entry *entry = protocol_entry_find(protocol, false);
	struct protocol_interface *pif;
	UINTN best = 0, source_size = dp_size(*path);
	struct handle *best_handle = NULL;

	if (entry) {
		list_for_each_entry (pif, &entry->interfaces, entry_link) {
			struct protocol_interface *dp =
			    protocol_interface_find(pif->handle, &efi_device_path_protocol_guid);
			UINTN size;
			if (!dp || !dp->interface)
				continue;
			size = dp_size(dp->interface) - sizeof(EFI_DEVICE_PATH_PROTOCOL);
			if (size > source_size - sizeof(EFI_DEVICE_PATH_PROTOCOL) || size < best ||
			    (best_handle && size == best))
				continue;
			if (dp_starts_with(*path, dp->interface)) {
				best = size;
				best_handle = pif->handle;
			}
		}
	}
	tpl_restore(old);
	if (!best_handle)
		return EFI_NOT_FOUND;
	*device = best_handle;
	*path = (EFI_DEVICE_PATH_PROTOCOL *)((UINT8 *)*path + best);
	return EFI_SUCCESS;
}

static EFI_STATUS protocols_per_handle(struct handle *h, EFI_GUID ***protocols, UINTN *count)
{
	struct protocol_interface *pif;
	UINTN n = 0, i = 0;
	EFI_GUID **buffer;

	list_for_each_entry (pif, &h->interfaces, handle_link)
		n++;
	buffer = pool_alloc_typed(EfiBootServicesData, n * sizeof(EFI_GUID *));
	if (!buffer)
		return EFI_OUT_OF_RESOURCES;
	list_for_each_entry (pif, &h->interfaces, handle_link)
		buffer[i++] = &pif->entry->guid;
	*protocols = buffer;
	*count = n;
	return EFI_SUCCESS;
}

EFI_STATUS protocol_register_notify(const EFI_GUID *protocol, EFI_EVENT event, void **registration)
{
	EFI_TPL old = tpl_raise(PROTOCOL_LOCK_TPL);
	EFI_STATUS status = register_notify(protocol, event, registration);

	tpl_restore(old);
	return status;
}

/* ---- Boot services entry points ---- */

EFI_STATUS EFIAPI efi_register_protocol_notify(EFI_GUID *protocol, EFI_EVENT event,
					       VOID **registration)
{
	if (!protocol || !registration || !event_lookup(event))
		return EFI_INVALID_PARAMETER;
	return protocol_register_notify(protocol, event, registration);
}

EFI_STATUS EFIAPI efi_locate_handle(EFI_LOCATE_SEARCH_TYPE type, EFI_GUID *protocol,
				    VOID *search_key, UINTN *buffer_size, EFI_HANDLE *buffer)
{
	EFI_TPL old;
	EFI_STATUS status;

	if (!buffer_size || (*buffer_size && !buffer))
		return EFI_INVALID_PARAMETER;
	old = tpl_raise(PROTOCOL_LOCK_TPL);
	status = locate_handle(type, protocol, search_key, buffer_size, buffer);
	tpl_restore(old);
	return status;
}

EFI_STATUS EFIAPI efi_locate_handle_buffer(EFI_LOCATE_SEARCH_TYPE type, EFI_GUID *protocol,
					   VOID *search_key, UINTN *count, EFI_HANDLE **buffer)
{
	if (!count || !buffer)
		return EFI_INVALID_PARAMETER;
	return handle_locate_buffer(type, protocol, search_key, count, buffer);
}

EFI_STATUS EFIAPI efi_locate_protocol(EFI_GUID *protocol, VOID *registration, VOID **interface)
{
	EFI_TPL old;
	struct protocol_notify *n;
	struct protocol_interface *pif;
	EFI_STATUS status = EFI_NOT_FOUND;

	if (!interface || !protocol)
		return EFI_INVALID_PARAMETER;
	if (!registration)
		return protocol_locate(protocol, interface);
	*interface = NULL;
	old = tpl_raise(PROTOCOL_LOCK_TPL);
	n = protocol_notify_lookup(registration);
	pif = n && guid_eq(&n->entry->guid, protocol) ? protocol_notify_next(n, true) : NULL;
	if (pif) {
		*interface = pif->interface;
		status = EFI_SUCCESS;
	}
	tpl_restore(old);
	return status;
}

EFI_STATUS EFIAPI efi_locate_device_path(EFI_GUID *protocol, EFI_DEVICE_PATH_PROTOCOL **path,
					 EFI_HANDLE *device)
{
	if (!protocol || !path || !*path || !device)
		return EFI_INVALID_PARAMETER;
	return handle_locate_device_path(protocol, path, device);
}

EFI_STATUS EFIAPI efi_protocols_per_handle(EFI_HANDLE handle, EFI_GUID ***protocols, UINTN *count)
{
	EFI_TPL old;
	struct handle *h;
	EFI_STATUS status;

	if (!protocols || !count)
		return EFI_INVALID_PARAMETER;
	old = tpl_raise(PROTOCOL_LOCK_TPL);
	h = handle_lookup(handle);
	status = h ? protocols_per_handle(h, protocols, count) : EFI_INVALID_PARAMETER;
	tpl_restore(old);
	return status;
}
