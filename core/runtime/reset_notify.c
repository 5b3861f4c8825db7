/* EFI_RESET_NOTIFICATION_PROTOCOL (UEFI 2.10, 8.5.1): functions registered here run, in the
 * order they were registered, when ResetSystem is called before ExitBootServices. After it
 * the list is ignored, as the spec says: the functions are boot-services code, gone once
 * the OS owns the memory. */
#define LOG_PREFIX "reset: "
#include "../services.h"
#include <ember/core/init.h>
#include <ember/core/log.h>
#include <ember/lib/guids.h>
#include <ember/lib/list.h>
#include <efi/protocol/reset_notification.h>

struct reset_notify {
	struct list link;
	EFI_RESET_SYSTEM function; /* NULL once unregistered while the list runs */
};

static struct list notifies = LIST_INIT(notifies);
static bool notifying; /* the list is running */

static struct reset_notify *find(EFI_RESET_SYSTEM function)
{
	struct reset_notify *n;

	list_for_each_entry (n, &notifies, link)
		if (n->function == function)
			return n;
	return NULL;
}

static EFI_STATUS EFIAPI register_reset_notify(EFI_RESET_NOTIFICATION_PROTOCOL *this,
					       EFI_RESET_SYSTEM function)
{
	struct reset_notify *n;

	if (!function)
		return EFI_INVALID_PARAMETER;
	if (find(function))
		return EFI_ALREADY_STARTED;
	n = pool_alloc(sizeof(*n));
	if (!n)
		return EFI_OUT_OF_RESOURCES;
	n->function = function;
	list_add_tail(&n->link, &notifies);
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI unregister_reset_notify(EFI_RESET_NOTIFICATION_PROTOCOL *this,
						 EFI_RESET_SYSTEM function)
{
	struct reset_notify *n = function ? find(function) : NULL;

	if (!n)
		return EFI_INVALID_PARAMETER;
	/* While the list runs, its walk may be standing on this entry: leave it in place. */
	if (notifying) {
		n->function = NULL;
		return EFI_SUCCESS;
	}
	list_del(&n->link);
	pool_free(n);
	return EFI_SUCCESS;
}

static EFI_RESET_NOTIFICATION_PROTOCOL reset_notification = {
    .RegisterResetNotify = register_reset_notify,
    .UnregisterResetNotify = unregister_reset_notify,
};

void reset_notify_run(EFI_RESET_TYPE type, EFI_STATUS status, UINTN data_size, VOID *data)
{
	struct reset_notify *n, *next;

	if (core_boot_services_exited)
		return;
	if (notifying) {
		/* A function reset the machine itself, which the spec forbids: that reset is
		 * the one that happens, without running the list again. */
		notifying = false;
		return;
	}
	notifying = true;
	list_for_each_entry (n, &notifies, link)
		if (n->function)
			n->function(type, status, data_size, data);
	notifying = false;
	for (n = list_first_entry(&notifies, struct reset_notify, link); &n->link != &notifies;
	     n = next) {
		next = list_entry(n->link.next, struct reset_notify, link);
		if (!n->function) {
			list_del(&n->link);
			pool_free(n);
		}
	}
}

static EFI_STATUS reset_notify_publish(void)
{
	EFI_HANDLE handle = NULL;

	return protocol_install(&handle, &efi_reset_notification_protocol_guid,
				&reset_notification);
}
EMBER_INIT(INIT_EARLY, reset_notify_publish);
