/* EFI_HII_DATABASE_PROTOCOL (UEFI 2.10, 34.8): package lists added, updated, removed, listed
 * and exported. Every list is checked whole (core/hii/package_check.c) before anything is
 * kept, so the protocols above it read only well-formed packages. */
#define LOG_PREFIX "hii: "
#include "hii.h"
#include <ember/core/hii.h>
#include <ember/core/init.h>
#include <ember/core/log.h>
#include <ember/lib/guids.h>
#include <ember/lib/str.h>

struct list hii_lists = LIST_INIT(hii_lists);

/* The list behind a handle, or NULL. */
struct hii_list *hii_list_lookup(EFI_HII_HANDLE handle)
{
	struct hii_list *list = handle;

	if (!handle || !mem_is_allocated(list, sizeof(*list)) ||
	    list->signature != HII_LIST_SIGNATURE)
		return NULL;
	return list;
}

/* A copy of a package in pool memory. */
struct hii_package *hii_package_copy(const UINT8 *data)
{
	UINT32 size = hii_package_length(data);
	struct hii_package *package = pool_alloc(sizeof(*package) + size);

	if (!package)
		return NULL;
	package->size = size;
	package->type = hii_package_type(data);
	mem_copy(package->data, data, size);
	return package;
}

static void remove_package(struct hii_list *list, struct hii_package *package)
{
	hii_notify(list, package, EFI_HII_DATABASE_NOTIFY_REMOVE_PACK);
	list_del(&package->link);
	pool_free(package);
}

/* Replaces a package by an edited copy, in its place. */
void hii_package_replace(struct hii_package *old, struct hii_package *package)
{
	list_insert_between(&package->link, old->link.prev, &old->link);
	list_del(&old->link);
	pool_free(old);
}

/* Copies the packages of a checked list (END excluded) into a new chain. */
static EFI_STATUS copy_packages(const EFI_HII_PACKAGE_LIST_HEADER *src, struct list *out)
{
	const UINT8 *p = (const UINT8 *)src;

	list_init(out);
	for (UINT32 at = sizeof(*src); at < src->PackageLength; at += hii_package_length(p + at)) {
		struct hii_package *package;

		if (hii_package_type(p + at) == EFI_HII_PACKAGE_END)
			break;
		package = hii_package_copy(p + at);
		if (!package) {
			while (!list_empty(out)) {
				package = list_first_entry(out, struct hii_package, link);
				list_del(&package->link);
				pool_free(package);
			}
			log_debug("no memory for a package of %u bytes\n",
				  hii_package_length(p + at));
			return EFI_OUT_OF_RESOURCES;
		}
		list_add_tail(&package->link, out);
	}
	return EFI_SUCCESS;
}

/* The caller's list, checked; EFI_INVALID_PARAMETER for a malformed one. */
static EFI_STATUS check_list(const EFI_HII_PACKAGE_LIST_HEADER *list)
{
	UINT32 length;
	const char *problem;

	mem_copy(&length, &list->PackageLength, sizeof(length));
	problem = hii_package_list_check(list, length);
	if (problem) {
		log_debug("package list refused: %s\n", problem);
		return EFI_INVALID_PARAMETER;
	}
	return EFI_SUCCESS;
}

static struct hii_list *find_by_guid(const EFI_GUID *guid)
{
	struct hii_list *list;

	list_for_each_entry (list, &hii_lists, link) {
		if (guid_eq(&list->guid, guid))
			return list;
	}
	return NULL;
}

static EFI_STATUS EFIAPI hii_new_package_list(const EFI_HII_DATABASE_PROTOCOL *This,
					      const EFI_HII_PACKAGE_LIST_HEADER *PackageList,
					      EFI_HANDLE DriverHandle, EFI_HII_HANDLE *Handle)
{
	struct hii_package *package;
	struct hii_list *list;
	EFI_STATUS status;

	if (!PackageList || !Handle)
		return EFI_INVALID_PARAMETER;
	status = check_list(PackageList);
	if (EFI_ERROR(status))
		return status;
	if (find_by_guid(&PackageList->PackageListGuid)) {
		log_debug("a package list of that GUID is already in the database\n");
		return EFI_INVALID_PARAMETER;
	}
	list = pool_alloc(sizeof(*list));
	if (!list)
		return EFI_OUT_OF_RESOURCES;
	status = copy_packages(PackageList, &list->packages);
	if (EFI_ERROR(status)) {
		pool_free(list);
		return status;
	}
	list->signature = HII_LIST_SIGNATURE;
	list->guid = PackageList->PackageListGuid;
	list->driver = DriverHandle;
	list_add_tail(&list->link, &hii_lists);
	list_for_each_entry (package, &list->packages, link) {
		hii_notify(list, package, EFI_HII_DATABASE_NOTIFY_NEW_PACK);
	}
	*Handle = list;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI hii_remove_package_list(const EFI_HII_DATABASE_PROTOCOL *This,
						 EFI_HII_HANDLE Handle)
{
	struct hii_list *list = hii_list_lookup(Handle);

	if (!list)
		return EFI_NOT_FOUND;
	while (!list_empty(&list->packages))
		remove_package(list, list_first_entry(&list->packages, struct hii_package, link));
	list_del(&list->link);
	list->signature = 0;
	pool_free(list);
	return EFI_SUCCESS;
}

/* Removes a list's packages of one type (the update replaces them by the new ones). */
static void remove_type(struct hii_list *list, UINT8 type)
{
	struct hii_package *package, *next;

	list_for_each_entry_safe (package, next, &list->packages, link) {
		if (package->type == type)
			remove_package(list, package);
	}
}

static EFI_STATUS EFIAPI hii_update_package_list(const EFI_HII_DATABASE_PROTOCOL *This,
						 EFI_HII_HANDLE Handle,
						 const EFI_HII_PACKAGE_LIST_HEADER *PackageList)
{
	struct hii_list *list = hii_list_lookup(Handle);
	struct hii_package *package, *next;
	struct list added;
	EFI_STATUS status;

	if (!PackageList)
		return EFI_INVALID_PARAMETER;
	if (!list)
		return EFI_NOT_FOUND;
	status = check_list(PackageList);
	if (!EFI_ERROR(status))
		status = copy_packages(PackageList, &added);
	if (EFI_ERROR(status))
		return status;
	/* Packages of each type the update carries replace those of that type (34.8.1). */
	list_for_each_entry (package, &added, link) {
		remove_type(list, package->type);
	}
	list_for_each_entry_safe (package, next, &added, link) {
		list_del(&package->link);
		list_add_tail(&package->link, &list->packages);
		hii_notify(list, package, EFI_HII_DATABASE_NOTIFY_ADD_PACK);
	}
	list->generation++;
	return EFI_SUCCESS;
}

/* Whether a list holds a package of a type (and, for GUID packages, of a GUID). */
static bool list_matches(const struct hii_list *list, UINT8 type, const EFI_GUID *guid)
{
	const struct hii_package *package;

	if (type == EFI_HII_PACKAGE_TYPE_ALL)
		return true;
	list_for_each_entry (package, &list->packages, link) {
		if (package->type != type)
			continue;
		if (type != EFI_HII_PACKAGE_TYPE_GUID ||
		    !mem_cmp(package->data + sizeof(EFI_HII_PACKAGE_HEADER), guid, sizeof(*guid)))
			return true;
	}
	return false;
}

static EFI_STATUS EFIAPI hii_list_package_lists(const EFI_HII_DATABASE_PROTOCOL *This,
						UINT8 PackageType, const EFI_GUID *PackageGuid,
						UINTN *HandleBufferLength, EFI_HII_HANDLE *Handle)
{
	struct hii_list *list;
	UINTN need = 0;

	if (!HandleBufferLength || (*HandleBufferLength && !Handle))
		return EFI_INVALID_PARAMETER;
	if ((PackageType == EFI_HII_PACKAGE_TYPE_GUID) != (PackageGuid != NULL))
		return EFI_INVALID_PARAMETER;
	list_for_each_entry (list, &hii_lists, link) {
		if (!list_matches(list, PackageType, PackageGuid))
			continue;
		if (need + sizeof(*Handle) <= *HandleBufferLength)
			Handle[need / sizeof(*Handle)] = list;
		need += sizeof(*Handle);
	}
	if (!need)
		return EFI_NOT_FOUND;
	if (need > *HandleBufferLength) {
		*HandleBufferLength = need;
		return EFI_BUFFER_TOO_SMALL;
	}
	*HandleBufferLength = need;
	return EFI_SUCCESS;
}

static UINT32 export_size(const struct hii_list *list)
{
	const struct hii_package *package;
	UINT32 size = sizeof(EFI_HII_PACKAGE_LIST_HEADER) + sizeof(EFI_HII_PACKAGE_HEADER);

	list_for_each_entry (package, &list->packages, link) {
		size += package->size;
	}
	return size;
}

/* Writes one list as a package list (its packages, then an END package) at out. */
static void export_list(struct hii_list *list, UINT8 *out)
{
	EFI_HII_PACKAGE_LIST_HEADER hdr = {list->guid, export_size(list)};
	EFI_HII_PACKAGE_HEADER end = {sizeof(end) | (UINT32)EFI_HII_PACKAGE_END << 24};
	struct hii_package *package;
	UINT32 at = sizeof(hdr);

	mem_copy(out, &hdr, sizeof(hdr));
	list_for_each_entry (package, &list->packages, link) {
		mem_copy(out + at, package->data, package->size);
		at += package->size;
		hii_notify(list, package, EFI_HII_DATABASE_NOTIFY_EXPORT_PACK);
	}
	mem_copy(out + at, &end, sizeof(end));
}

static EFI_STATUS EFIAPI hii_export_package_lists(const EFI_HII_DATABASE_PROTOCOL *This,
						  EFI_HII_HANDLE Handle, UINTN *BufferSize,
						  EFI_HII_PACKAGE_LIST_HEADER *Buffer)
{
	struct hii_list *one = hii_list_lookup(Handle), *list;
	UINTN need = 0, at = 0;

	if (!BufferSize || (*BufferSize && !Buffer))
		return EFI_INVALID_PARAMETER;
	if (Handle && !one)
		return EFI_NOT_FOUND;
	list_for_each_entry (list, &hii_lists, link) {
		if (!one || list == one)
			need += export_size(list);
	}
	if (need > *BufferSize) {
		*BufferSize = need;
		return EFI_BUFFER_TOO_SMALL;
	}
	list_for_each_entry (list, &hii_lists, link) {
		if (one && list != one)
			continue;
		export_list(list, (UINT8 *)Buffer + at);
		at += export_size(list);
	}
	*BufferSize = need;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI hii_get_package_list_handle(const EFI_HII_DATABASE_PROTOCOL *This,
						     EFI_HII_HANDLE PackageListHandle,
						     EFI_HANDLE *DriverHandle)
{
	struct hii_list *list = hii_list_lookup(PackageListHandle);

	if (!DriverHandle)
		return EFI_INVALID_PARAMETER;
	if (!list)
		return EFI_NOT_FOUND;
	*DriverHandle = list->driver;
	return EFI_SUCCESS;
}

static EFI_HII_DATABASE_PROTOCOL hii_database = {
    hii_new_package_list,	   hii_remove_package_list,    hii_update_package_list,
    hii_list_package_lists,	   hii_export_package_lists,   hii_register_package_notify,
    hii_unregister_package_notify, hii_find_keyboard_layouts,  hii_get_keyboard_layout,
    hii_set_keyboard_layout,	   hii_get_package_list_handle};

/* Publishes the database, string, config routing and form browser protocols on one
 * handle, once. */
EFI_STATUS hii_publish(void)
{
	static EFI_HANDLE handle;
	EFI_STATUS status;

	if (handle)
		return EFI_SUCCESS;
	status = protocol_install_multiple(
	    &handle, &efi_hii_database_protocol_guid, &hii_database, &efi_hii_string_protocol_guid,
	    &hii_string_protocol, &efi_hii_config_routing_protocol_guid,
	    &hii_config_routing_protocol, &efi_form_browser2_protocol_guid, &hii_form_browser,
	    NULL);
	if (EFI_ERROR(status))
		log_debug("installing the protocols: %r\n", status);
	return status;
}

static EFI_STATUS hii_init(void)
{
	return hii_publish();
}
EMBER_INIT(INIT_EARLY, hii_init);
