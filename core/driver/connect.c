/* ConnectController (UEFI 2.10, section 7.3): offers a controller to the drivers in the
 * spec's priority order (the caller's list, the platform override, driver families, the
 * bus override, then everyone else by Version) until none wants it any more. */
#include "../handle/handle.h"
#include "../services.h"
#include <ember/core/devpath.h>
#include <efi/protocol/driver_binding.h>
#include <efi/protocol/driver_override.h>
#include <ember/lib/guids.h>
#include <ember/lib/str.h>

struct candidates {
	EFI_HANDLE *handles;		      /* handles with a driver binding */
	EFI_DRIVER_BINDING_PROTOCOL **all;    /* their bindings; NULL once taken */
	EFI_DRIVER_BINDING_PROTOCOL **sorted; /* in the order to try them */
	UINTN count, sorted_count;
};

/* Moves the binding on a handle, then every binding of its image, into the sorted list. The
 * overrides name image handles, and an image's bindings may sit on other handles than its
 * own (UEFI 2.10, 11.1 DriverBindingHandle), so the handle may also be the image. */
static void take_binding(struct candidates *c, EFI_HANDLE handle)
{
	EFI_HANDLE image = handle;

	for (UINTN i = 0; i < c->count; i++)
		if (c->handles[i] == handle && c->all[i]) {
			image = c->all[i]->ImageHandle;
			c->sorted[c->sorted_count++] = c->all[i];
			c->all[i] = NULL;
		}
	for (UINTN i = 0; i < c->count; i++)
		if (c->all[i] &&
		    (c->all[i]->ImageHandle == image || c->all[i]->ImageHandle == handle)) {
			c->sorted[c->sorted_count++] = c->all[i];
			c->all[i] = NULL;
		}
}

/* Moves the bindings left that pass the filter into the sorted list, highest rank first,
 * equal ranks in their order in the list (what repeatedly taking the first highest gives).
 * Each rank is asked for once and the moves are an insertion sort: ConnectController runs
 * this for every controller of every pass, over every driver. */
static void take_by_rank(struct candidates *c, bool (*filter)(EFI_HANDLE),
			 UINT32 (*rank)(UINTN, struct candidates *), UINT32 *ranks)
{
	UINTN first = c->sorted_count;

	for (UINTN i = 0; i < c->count; i++) {
		UINTN at = c->sorted_count;
		UINT32 r;
		if (!c->all[i] || (filter && !filter(c->handles[i])))
			continue;
		r = rank(i, c);
		for (; at > first && ranks[at - 1] < r; at--) {
			c->sorted[at] = c->sorted[at - 1];
			ranks[at] = ranks[at - 1];
		}
		c->sorted[at] = c->all[i];
		ranks[at] = r;
		c->sorted_count++;
		c->all[i] = NULL;
	}
}

static UINT32 rank_by_version(UINTN i, struct candidates *c)
{
	return c->all[i]->Version;
}

static UINT32 rank_by_family(UINTN i, struct candidates *c)
{
	EFI_DRIVER_FAMILY_OVERRIDE_PROTOCOL *family;

	protocol_get(c->handles[i], &efi_driver_family_override_protocol_guid, (void **)&family);
	return family->GetVersion(family);
}

static bool has_family_override(EFI_HANDLE h)
{
	void *p;

	return !EFI_ERROR(protocol_get(h, &efi_driver_family_override_protocol_guid, &p));
}

static void sort_candidates(struct candidates *c, EFI_HANDLE controller, EFI_HANDLE *driver_images,
			    UINT32 *ranks)
{
	EFI_PLATFORM_DRIVER_OVERRIDE_PROTOCOL *platform;
	EFI_BUS_SPECIFIC_DRIVER_OVERRIDE_PROTOCOL *bus;
	EFI_HANDLE image;

	for (UINTN i = 0; driver_images && driver_images[i]; i++)
		take_binding(c, driver_images[i]);
	if (!EFI_ERROR(
		protocol_locate(&efi_platform_driver_override_protocol_guid, (void **)&platform)))
		for (image = NULL; !EFI_ERROR(platform->GetDriver(platform, controller, &image));)
			take_binding(c, image);
	take_by_rank(c, has_family_override, rank_by_family, ranks);
	if (!EFI_ERROR(protocol_get(controller, &efi_bus_specific_driver_override_protocol_guid,
				    (void **)&bus)))
		for (image = NULL; !EFI_ERROR(bus->GetDriver(bus, &image));)
			take_binding(c, image);
	take_by_rank(c, NULL, rank_by_version, ranks);
}

/* The handles with a driver binding and their bindings, kept while no binding comes or
 * goes (driver_bindings_changed_at): ConnectController needs them for every controller of
 * every pass, and looking them up cost a handle search and a protocol lookup per driver. */
static struct {
	bool valid;
	UINT64 stamp;
	UINTN count;
	EFI_HANDLE *handles;
	EFI_DRIVER_BINDING_PROTOCOL **all;
} bindings;

static bool bindings_load(void)
{
	EFI_DRIVER_BINDING_PROTOCOL **all = NULL;
	EFI_HANDLE *handles = NULL;
	UINTN count = 0;

	if (bindings.valid && bindings.stamp == driver_bindings_changed_at)
		return true;
	if (!EFI_ERROR(handle_locate_buffer(ByProtocol, &efi_driver_binding_protocol_guid, NULL,
					    &count, &handles)))
		all = pool_alloc(count * sizeof(*all));
	for (UINTN i = 0; all && i < count; i++)
		protocol_get(handles[i], &efi_driver_binding_protocol_guid, (void **)&all[i]);
	pool_free(bindings.handles);
	pool_free(bindings.all);
	if (!all) {
		pool_free(handles);
		handles = NULL;
	}
	bindings.valid = all != NULL;
	bindings.stamp = driver_bindings_changed_at;
	bindings.count = all ? count : 0;
	bindings.handles = handles;
	bindings.all = all;
	return bindings.valid;
}

/* The Start calls running now, innermost first: each lives in its caller's frame. */
struct running_start {
	EFI_HANDLE driver, controller;
	struct running_start *outer;
};

static struct running_start *running_starts;

bool driver_is_starting(EFI_HANDLE driver, EFI_HANDLE controller)
{
	for (struct running_start *r = running_starts; r; r = r->outer)
		if (r->driver == driver && r->controller == controller)
			return true;
	return false;
}

static EFI_STATUS start_driver(EFI_DRIVER_BINDING_PROTOCOL *db, EFI_HANDLE controller,
			       EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	struct running_start self = {db->DriverBindingHandle, controller, running_starts};
	EFI_STATUS status;

	running_starts = &self;
	status = db->Start(db, controller, remaining);
	running_starts = self.outer;
	return status;
}

/* Offers the controller to each driver in turn; after a Start, the round begins again. */
static EFI_STATUS connect_single(EFI_HANDLE controller, EFI_HANDLE *driver_images,
				 EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	struct candidates c = {0};
	UINT32 *ranks = NULL;
	bool found, started = false, failed = false;
	struct handle *h;
	EFI_STATUS status;

	if (!bindings_load())
		return EFI_NOT_FOUND;
	/* Copies: a driver's Start may connect other controllers, which may load them anew. */
	c.count = bindings.count;
	c.handles = pool_alloc(c.count * sizeof(*c.handles));
	c.all = pool_alloc(c.count * sizeof(*c.all));
	c.sorted = pool_alloc(c.count * sizeof(*c.sorted));
	ranks = pool_alloc(c.count * sizeof(*ranks));
	if (!c.handles || !c.all || !c.sorted || !ranks) {
		status = EFI_OUT_OF_RESOURCES;
		goto out;
	}
	mem_copy(c.handles, bindings.handles, c.count * sizeof(*c.handles));
	mem_copy(c.all, bindings.all, c.count * sizeof(*c.all));
	sort_candidates(&c, controller, driver_images, ranks);
	do {
		found = false;
		for (UINTN i = 0; i < c.sorted_count && !found; i++) {
			EFI_DRIVER_BINDING_PROTOCOL *db = c.sorted[i];
			if (!db || EFI_ERROR(db->Supported(db, controller, remaining)))
				continue;
			c.sorted[i] = NULL; /* each driver gets one Start per connect */
			found = true;
			if (!EFI_ERROR(start_driver(db, controller, remaining)))
				started = true;
			else
				failed = true;
		}
	} while (found);
	/* Every driver was offered the controller as it is now and declined or started: until
	 * it or the drivers change, offering it again changes nothing (a failed Start is tried
	 * again, as before). */
	h = handle_lookup(controller);
	if (h)
		h->settled_at = !driver_images && !remaining && !failed ? handle_generation : 0;
	if (started || (remaining && dp_is_end(remaining)))
		status = EFI_SUCCESS;
	else
		status = EFI_NOT_FOUND;
out:
	pool_free(ranks);
	pool_free(c.sorted);
	pool_free(c.all);
	pool_free(c.handles);
	return status;
}

/* The children a controller's drivers created (opened BY_CHILD_CONTROLLER). */
EFI_STATUS driver_children(EFI_HANDLE controller, EFI_HANDLE agent, EFI_HANDLE **children,
			   UINTN *count)
{
	EFI_TPL old = tpl_raise(PROTOCOL_LOCK_TPL);
	struct handle *h = handle_lookup(controller);
	struct protocol_interface *pif;
	struct open_entry *o;
	UINTN n = 0, capacity = 0;

	*children = NULL;
	*count = 0;
	if (h)
		list_for_each_entry (pif, &h->interfaces, handle_link)
			list_for_each_entry (o, &pif->opens, link)
				capacity++;
	if (capacity)
		*children = pool_alloc(capacity * sizeof(EFI_HANDLE));
	if (capacity && !*children) {
		tpl_restore(old);
		return EFI_OUT_OF_RESOURCES;
	}
	if (h)
		list_for_each_entry (pif, &h->interfaces, handle_link)
			list_for_each_entry (o, &pif->opens, link) {
				bool seen = false;
				if (!(o->attributes & EFI_OPEN_PROTOCOL_BY_CHILD_CONTROLLER) ||
				    (agent && o->agent != agent))
					continue;
				for (UINTN i = 0; i < n; i++)
					seen |= (*children)[i] == o->controller;
				if (!seen)
					(*children)[n++] = o->controller;
			}
	*count = n;
	tpl_restore(old);
	return EFI_SUCCESS;
}

/* Whether every driver declined the controller, or started on it, since it and the set of
 * drivers last changed (see connect_single). */
static bool is_settled(EFI_HANDLE controller)
{
	struct handle *h = handle_lookup(controller);

	return h && h->settled_at && h->settled_at >= h->changed_at &&
	       h->settled_at >= driver_bindings_changed_at;
}

/* ConnectController(controller, NULL, NULL, TRUE), skipping the offer to the drivers of a
 * controller that is settled when skip_settled (its children are still visited). */
static EFI_STATUS connect_tree(EFI_HANDLE controller, EFI_HANDLE *driver_images,
			       EFI_DEVICE_PATH_PROTOCOL *remaining, bool recursive,
			       bool skip_settled)
{
	EFI_STATUS status = skip_settled && is_settled(controller)
				? EFI_SUCCESS
				: connect_single(controller, driver_images, remaining);
	EFI_HANDLE *children;
	UINTN count;

	if (!recursive || (remaining && dp_is_end(remaining)))
		return status;
	if (EFI_ERROR(driver_children(controller, NULL, &children, &count)))
		return status;
	for (UINTN i = 0; i < count; i++)
		if (handle_is_valid(children[i]))
			connect_tree(children[i], NULL, NULL, true, skip_settled);
	pool_free(children);
	return status;
}

EFI_STATUS driver_connect(EFI_HANDLE controller, EFI_HANDLE *driver_images,
			  EFI_DEVICE_PATH_PROTOCOL *remaining, bool recursive)
{
	return connect_tree(controller, driver_images, remaining, recursive, false);
}

/* Every handle, recursively. A controller that every driver already declined or started on,
 * and that has not changed since, nor have the drivers, is not offered again: a second pass
 * (the boot manager's, after the platform's) then costs only the controllers that are new
 * or changed. */
void driver_connect_all(void)
{
	EFI_HANDLE *handles;
	UINTN count;

	if (EFI_ERROR(handle_locate_buffer(AllHandles, NULL, NULL, &count, &handles)))
		return;
	for (UINTN i = 0; i < count; i++)
		if (handle_is_valid(handles[i]))
			connect_tree(handles[i], NULL, NULL, true, true);
	pool_free(handles);
}

EFI_STATUS EFIAPI efi_connect_controller(EFI_HANDLE controller, EFI_HANDLE *driver_images,
					 EFI_DEVICE_PATH_PROTOCOL *remaining, BOOLEAN recursive)
{
	if (!handle_is_valid(controller))
		return EFI_INVALID_PARAMETER;
	return driver_connect(controller, driver_images, remaining, recursive);
}
