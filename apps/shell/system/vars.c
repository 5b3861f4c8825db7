/* Reading and walking UEFI variables for dmpstore, setvar and bcfg. */
#include "sys.h"

EFI_STATUS sys_var_read(const CHAR16 *name, const EFI_GUID *guid, UINT32 *attributes, void **data,
			UINTN *size)
{
	UINTN want = 0;
	void *buf = NULL;
	EFI_STATUS status;

	*data = NULL;
	*size = 0;
	for (int tries = 0; tries < 4; tries++) {
		status =
		    app_rt->GetVariable((CHAR16 *)name, (EFI_GUID *)guid, attributes, &want, buf);
		if (status != EFI_BUFFER_TOO_SMALL)
			break;
		app_free(buf);
		/* One spare byte, so that a zero-sized variable still has a buffer. */
		buf = app_alloc(want + 1);
		if (!buf)
			return EFI_OUT_OF_RESOURCES;
	}
	if (EFI_ERROR(status)) {
		app_free(buf);
		return status;
	}
	if (!buf && !(buf = app_alloc(1)))
		return EFI_OUT_OF_RESOURCES;
	*data = buf;
	*size = want;
	return EFI_SUCCESS;
}

struct var_id {
	struct var_id *next;
	EFI_GUID guid;
	CHAR16 name[];
};

/* The names of every variable, in the order GetNextVariableName gives them. */
static EFI_STATUS list_names(struct var_id **out)
{
	UINTN cap = 256;
	CHAR16 *name = app_zalloc(cap);
	struct var_id **tail = out;
	EFI_GUID guid = {0};
	EFI_STATUS status = EFI_OUT_OF_RESOURCES;

	*out = NULL;
	while (name) {
		UINTN size = cap;
		struct var_id *id;
		status = app_rt->GetNextVariableName(&size, name, &guid);
		if (status == EFI_BUFFER_TOO_SMALL) {
			CHAR16 *bigger = app_zalloc(size);
			if (!bigger)
				break;
			mem_copy(bigger, name, cap);
			app_free(name);
			name = bigger;
			cap = size;
			continue;
		}
		if (EFI_ERROR(status))
			break;
		id = app_alloc(sizeof(*id) + str16_size(name));
		if (!id) {
			status = EFI_OUT_OF_RESOURCES;
			break;
		}
		id->next = NULL;
		id->guid = guid;
		mem_copy(id->name, name, str16_size(name));
		*tail = id;
		tail = &id->next;
	}
	app_free(name);
	return status == EFI_NOT_FOUND ? EFI_SUCCESS : status;
}

/* The names are gathered first: fn may delete or write variables, which would upset a
 * GetNextVariableName walk in progress. */
EFI_STATUS sys_var_each(bool (*fn)(const CHAR16 *name, const EFI_GUID *guid, void *ctx), void *ctx)
{
	struct var_id *ids, *next;
	EFI_STATUS status = list_names(&ids);
	bool going = true;

	for (struct var_id *id = ids; id; id = next) {
		next = id->next;
		if (going)
			going = fn(id->name, &id->guid, ctx);
		app_free(id);
	}
	return status;
}
