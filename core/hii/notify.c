/* RegisterPackageNotify and UnregisterPackageNotify (UEFI 2.10, 34.8.1): functions called
 * when packages of a type (or GUID packages of one GUID) are added, removed or exported.
 * A registration is its NotifyHandle, checked by memory ownership and signature. */
#define LOG_PREFIX "hii: "
#include "hii.h"
#include <ember/core/log.h>
#include <ember/lib/str.h>

#define NOTIFY_SIGNATURE SIGNATURE_32('h', 'i', 'i', 'n')
#define NOTIFY_TYPES                                                                               \
	(EFI_HII_DATABASE_NOTIFY_NEW_PACK | EFI_HII_DATABASE_NOTIFY_REMOVE_PACK |                  \
	 EFI_HII_DATABASE_NOTIFY_EXPORT_PACK | EFI_HII_DATABASE_NOTIFY_ADD_PACK)

struct hii_notify_entry {
	UINT32 signature;
	struct list link;
	UINT8 type;
	bool has_guid;
	EFI_GUID guid;
	EFI_HII_DATABASE_NOTIFY fn;
	EFI_HII_DATABASE_NOTIFY_TYPE what;
};

static struct list notifications = LIST_INIT(notifications);

static bool matches(const struct hii_notify_entry *n, const struct hii_package *package,
		    EFI_HII_DATABASE_NOTIFY_TYPE what)
{
	if (!(n->what & what) || n->type != package->type)
		return false;
	return !n->has_guid ||
	       !mem_cmp(package->data + sizeof(EFI_HII_PACKAGE_HEADER), &n->guid, sizeof(n->guid));
}

/* Calls each registration that asked for this package and event. */
void hii_notify(struct hii_list *list, const struct hii_package *package,
		EFI_HII_DATABASE_NOTIFY_TYPE what)
{
	struct hii_notify_entry *n, *next;

	list_for_each_entry_safe (n, next, &notifications, link) {
		if (matches(n, package, what))
			n->fn(package->type, n->has_guid ? &n->guid : NULL,
			      (const EFI_HII_PACKAGE_HEADER *)package->data, list, what);
	}
}

/* RegisterPackageNotify. */
EFI_STATUS EFIAPI hii_register_package_notify(const EFI_HII_DATABASE_PROTOCOL *This,
					      UINT8 PackageType, const EFI_GUID *PackageGuid,
					      EFI_HII_DATABASE_NOTIFY PackageNotifyFn,
					      EFI_HII_DATABASE_NOTIFY_TYPE NotifyType,
					      EFI_HANDLE *NotifyHandle)
{
	struct hii_notify_entry *n;

	if (!PackageNotifyFn || !NotifyHandle || !NotifyType || (NotifyType & ~NOTIFY_TYPES))
		return EFI_INVALID_PARAMETER;
	/* A GUID is given exactly for GUID packages (34.8.1, RegisterPackageNotify). */
	if ((PackageType == EFI_HII_PACKAGE_TYPE_GUID) != (PackageGuid != NULL))
		return EFI_INVALID_PARAMETER;
	n = pool_alloc(sizeof(*n));
	if (!n)
		return EFI_OUT_OF_RESOURCES;
	n->signature = NOTIFY_SIGNATURE;
	n->type = PackageType;
	n->has_guid = PackageGuid != NULL;
	if (PackageGuid)
		n->guid = *PackageGuid;
	n->fn = PackageNotifyFn;
	n->what = NotifyType;
	list_add_tail(&n->link, &notifications);
	*NotifyHandle = n;
	return EFI_SUCCESS;
}

/* UnregisterPackageNotify. */
EFI_STATUS EFIAPI hii_unregister_package_notify(const EFI_HII_DATABASE_PROTOCOL *This,
						EFI_HANDLE NotificationHandle)
{
	struct hii_notify_entry *n = NotificationHandle;

	if (!n)
		return EFI_INVALID_PARAMETER;
	if (!mem_is_allocated(n, sizeof(*n)) || n->signature != NOTIFY_SIGNATURE)
		return EFI_NOT_FOUND;
	list_del(&n->link);
	n->signature = 0;
	pool_free(n);
	return EFI_SUCCESS;
}
