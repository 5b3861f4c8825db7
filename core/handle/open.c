/* OpenProtocol, CloseProtocol and OpenProtocolInformation (UEFI 2.10, section 7.3):
 * who holds which interface, and how (by handle, by driver, exclusively ...). */
#include "handle.h"
#include "../services.h"
#include <ember/lib/str.h>

UINTN open_list_remove(struct protocol_interface *pif, UINT32 attribute_mask)
{
	struct open_entry *o, *tmp;
	UINTN removed = 0;

	list_for_each_entry_safe (o, tmp, &pif->opens, link) {
		if (o->attributes & attribute_mask) {
			if (o->attributes &
			    (EFI_OPEN_PROTOCOL_BY_DRIVER | EFI_OPEN_PROTOCOL_EXCLUSIVE))
				handle_changed(pif->handle, &pif->entry->guid);
			list_del(&o->link);
			pool_free(o);
			removed++;
		}
	}
	return removed;
}

/* Finds an open entry BY_DRIVER; used to disconnect them one at a time. */
static struct open_entry *first_by_driver(struct protocol_interface *pif)
{
	struct open_entry *o;

	list_for_each_entry (o, &pif->opens, link)
		if (o->attributes & EFI_OPEN_PROTOCOL_BY_DRIVER)
			return o;
	return NULL;
}

EFI_STATUS protocol_disconnect_users(struct handle *h, struct protocol_interface *pif)
{
	/* Each disconnect may change the open list, so look again after each one. */
	for (UINTN tries = 0; tries < 1024; tries++) {
		EFI_TPL old = tpl_raise(PROTOCOL_LOCK_TPL);
		struct open_entry *o =
		    pif->signature == INTERFACE_SIGNATURE ? first_by_driver(pif) : NULL;
		EFI_HANDLE agent = o ? o->agent : NULL;
		tpl_restore(old);
		if (!agent)
			return EFI_SUCCESS;
		if (EFI_ERROR(driver_disconnect(h, agent, NULL)))
			return EFI_ACCESS_DENIED;
	}
	return EFI_ACCESS_DENIED;
}

static bool attributes_are_valid(struct handle *h, EFI_HANDLE agent, EFI_HANDLE controller,
				 UINT32 attributes)
{
	switch (attributes) {
	case EFI_OPEN_PROTOCOL_BY_HANDLE_PROTOCOL:
	case EFI_OPEN_PROTOCOL_GET_PROTOCOL:
	case EFI_OPEN_PROTOCOL_TEST_PROTOCOL:
		return true;
	case EFI_OPEN_PROTOCOL_BY_CHILD_CONTROLLER:
		return handle_lookup(agent) && handle_lookup(controller) && controller != h;
	case EFI_OPEN_PROTOCOL_BY_DRIVER:
	case EFI_OPEN_PROTOCOL_BY_DRIVER | EFI_OPEN_PROTOCOL_EXCLUSIVE:
		return handle_lookup(agent) && handle_lookup(controller);
	case EFI_OPEN_PROTOCOL_EXCLUSIVE:
		return handle_lookup(agent) != NULL;
	default:
		return false;
	}
}

/* Drivers holding the interface BY_DRIVER give way to an EXCLUSIVE opener. */
static EFI_STATUS evict_drivers(struct handle *h, struct protocol_interface *pif,
				EFI_TPL caller_tpl)
{
	for (;;) {
		struct open_entry *o = first_by_driver(pif);
		EFI_HANDLE agent;
		EFI_STATUS status;
		if (!o)
			return EFI_SUCCESS;
		agent = o->agent;
		/* Drivers' Stop functions run at the caller's TPL, not under the lock. */
		tpl_restore(caller_tpl);
		status = driver_disconnect(h, agent, NULL);
		tpl_raise(PROTOCOL_LOCK_TPL);
		if (EFI_ERROR(status) || pif->signature != INTERFACE_SIGNATURE ||
		    (first_by_driver(pif) && first_by_driver(pif)->agent == agent))
			return EFI_ACCESS_DENIED;
	}
}

static EFI_STATUS open_locked(struct handle *h, struct protocol_interface *pif, EFI_HANDLE agent,
			      EFI_HANDLE controller, UINT32 attributes, EFI_TPL caller_tpl)
{
	bool by_driver = false, exclusive = false;
	struct open_entry *o;

	list_for_each_entry (o, &pif->opens, link) {
		bool exact =
		    o->agent == agent && o->controller == controller && o->attributes == attributes;
		/* A driver that already holds it (for any controller) has started already. */
		if ((o->attributes & attributes & EFI_OPEN_PROTOCOL_BY_DRIVER) &&
		    o->agent == agent &&
		    (attributes == EFI_OPEN_PROTOCOL_BY_DRIVER ||
		     (o->attributes & EFI_OPEN_PROTOCOL_EXCLUSIVE)))
			return EFI_ALREADY_STARTED;
		if (o->attributes & EFI_OPEN_PROTOCOL_BY_DRIVER)
			by_driver = true;
		if (o->attributes & EFI_OPEN_PROTOCOL_EXCLUSIVE) {
			exclusive = true;
		} else if (exact) {
			o->count++;
			return EFI_SUCCESS;
		}
	}
	switch (attributes) {
	case EFI_OPEN_PROTOCOL_BY_DRIVER:
		if (exclusive || by_driver)
			return EFI_ACCESS_DENIED;
		break;
	case EFI_OPEN_PROTOCOL_BY_DRIVER | EFI_OPEN_PROTOCOL_EXCLUSIVE:
	case EFI_OPEN_PROTOCOL_EXCLUSIVE:
		if (exclusive)
			return EFI_ACCESS_DENIED;
		if (by_driver && EFI_ERROR(evict_drivers(h, pif, caller_tpl)))
			return EFI_ACCESS_DENIED;
		break;
	}
	if (!agent)
		return EFI_SUCCESS; /* nothing to record without an agent */
	o = pool_alloc(sizeof(*o));
	if (!o)
		return EFI_OUT_OF_RESOURCES;
	*o = (struct open_entry){{NULL, NULL}, agent, controller, attributes, 1};
	list_add_tail(&o->link, &pif->opens);
	return EFI_SUCCESS;
}

EFI_STATUS protocol_open(EFI_HANDLE handle, const EFI_GUID *protocol, void **interface,
			 EFI_HANDLE agent, EFI_HANDLE controller, UINT32 attributes)
{
	EFI_TPL old = tpl_raise(PROTOCOL_LOCK_TPL);
	struct handle *h = handle_lookup(handle);
	struct protocol_interface *pif;
	EFI_STATUS status;

	if (!h || !attributes_are_valid(h, agent, controller, attributes)) {
		status = EFI_INVALID_PARAMETER; /* *interface stays as it was */
		goto out;
	}
	pif = protocol_interface_find(h, protocol);
	if (!pif) {
		if (attributes != EFI_OPEN_PROTOCOL_TEST_PROTOCOL)
			*interface = NULL;
		status = EFI_UNSUPPORTED;
		goto out;
	}
	status = open_locked(h, pif, agent, controller, attributes, old);
	/* The spec hands out the interface on success and to a driver that has it already. */
	if (attributes != EFI_OPEN_PROTOCOL_TEST_PROTOCOL &&
	    (status == EFI_SUCCESS || status == EFI_ALREADY_STARTED))
		*interface = pif->interface;
out:
	tpl_restore(old);
	return status;
}

EFI_STATUS protocol_close(EFI_HANDLE handle, const EFI_GUID *protocol, EFI_HANDLE agent,
			  EFI_HANDLE controller)
{
	EFI_TPL old = tpl_raise(PROTOCOL_LOCK_TPL);
	struct handle *h = handle_lookup(handle);
	struct protocol_interface *pif = h ? protocol_interface_find(h, protocol) : NULL;
	struct open_entry *o, *tmp;
	EFI_STATUS status = EFI_NOT_FOUND;

	if (pif) {
		list_for_each_entry_safe (o, tmp, &pif->opens, link) {
			if (o->agent == agent && o->controller == controller) {
				if (o->attributes &
				    (EFI_OPEN_PROTOCOL_BY_DRIVER | EFI_OPEN_PROTOCOL_EXCLUSIVE))
					handle_changed(h, protocol);
				list_del(&o->link);
				pool_free(o);
				status = EFI_SUCCESS;
			}
		}
	}
	tpl_restore(old);
	return status;
}

void protocol_close_all_by_agent(EFI_HANDLE agent)
{
	EFI_TPL old = tpl_raise(PROTOCOL_LOCK_TPL);
	struct handle *h;
	struct protocol_interface *pif;
	struct open_entry *o, *tmp;

	list_for_each_entry (h, &handle_list, link)
		list_for_each_entry (pif, &h->interfaces, handle_link)
			list_for_each_entry_safe (o, tmp, &pif->opens, link)
				if (o->agent == agent) {
					if (o->attributes & (EFI_OPEN_PROTOCOL_BY_DRIVER |
							     EFI_OPEN_PROTOCOL_EXCLUSIVE))
						handle_changed(h, &pif->entry->guid);
					list_del(&o->link);
					pool_free(o);
				}
	tpl_restore(old);
}

static EFI_STATUS open_information(struct protocol_interface *pif,
				   EFI_OPEN_PROTOCOL_INFORMATION_ENTRY **entries, UINTN *count)
{
	struct open_entry *o;
	UINTN n = 0, i = 0;
	EFI_OPEN_PROTOCOL_INFORMATION_ENTRY *buffer;

	list_for_each_entry (o, &pif->opens, link)
		n++;
	/* Always a real buffer, even for no entries: callers FreePool it. */
	buffer = pool_alloc_typed(EfiBootServicesData, (n ? n : 1) * sizeof(*buffer));
	if (!buffer)
		return EFI_OUT_OF_RESOURCES;
	list_for_each_entry (o, &pif->opens, link)
		buffer[i++] = (EFI_OPEN_PROTOCOL_INFORMATION_ENTRY){o->agent, o->controller,
								    o->attributes, o->count};
	*entries = buffer;
	*count = n;
	return EFI_SUCCESS;
}

/* ---- Boot services entry points ---- */

EFI_STATUS EFIAPI efi_open_protocol(EFI_HANDLE handle, EFI_GUID *protocol, VOID **interface,
				    EFI_HANDLE agent, EFI_HANDLE controller, UINT32 attributes)
{
	if (!protocol || (!interface && attributes != EFI_OPEN_PROTOCOL_TEST_PROTOCOL))
		return EFI_INVALID_PARAMETER;
	return protocol_open(handle, protocol, interface, agent, controller, attributes);
}

EFI_STATUS EFIAPI efi_close_protocol(EFI_HANDLE handle, EFI_GUID *protocol, EFI_HANDLE agent,
				     EFI_HANDLE controller)
{
	if (!protocol || !handle_lookup(handle) || !handle_lookup(agent) ||
	    (controller && !handle_lookup(controller)))
		return EFI_INVALID_PARAMETER;
	return protocol_close(handle, protocol, agent, controller);
}

EFI_STATUS EFIAPI efi_open_protocol_information(EFI_HANDLE handle, EFI_GUID *protocol,
						EFI_OPEN_PROTOCOL_INFORMATION_ENTRY **entries,
						UINTN *count)
{
	EFI_TPL old;
	struct handle *h;
	struct protocol_interface *pif;
	EFI_STATUS status = EFI_NOT_FOUND;

	if (!protocol || !entries || !count)
		return EFI_INVALID_PARAMETER;
	old = tpl_raise(PROTOCOL_LOCK_TPL);
	h = handle_lookup(handle);
	pif = h ? protocol_interface_find(h, protocol) : NULL;
	if (!h)
		status = EFI_INVALID_PARAMETER;
	else if (pif)
		status = open_information(pif, entries, count);
	tpl_restore(old);
	return status;
}
