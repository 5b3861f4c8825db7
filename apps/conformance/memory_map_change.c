/* The memory-map-change event group (UEFI 2.10, 7.1, EFI_EVENT_GROUP_MEMORY_MAP_CHANGE):
 * signalled whenever the memory map changes, and only then. "Changes" is read through
 * the map key, which GetMemoryMap says changes with every change to the map: a pool
 * allocation that fits in pages the pool already has changes neither. Steps that compare
 * keys run at TPL_NOTIFY, so that no other notification allocates in between. */
#define APP_TEST_SUITE "32_memory_map_change"
#include "conformance.h"

static EFI_GUID map_change_group = EFI_EVENT_GROUP_MEMORY_MAP_CHANGE;

static EFI_STATUS watch(EFI_EVENT_NOTIFY fn, UINTN *counter, EFI_EVENT *e)
{
	*e = NULL;
	return app_bs->CreateEventEx(EVT_NOTIFY_SIGNAL, TPL_CALLBACK, fn, counter,
				     &map_change_group, e);
}

/* The current map key, read into a buffer taken beforehand (so reading it changes
 * nothing); 0 when GetMemoryMap failed. */
static UINTN key_now(struct mmap *m)
{
	UINTN size = m->cap, key = 0, dsize;
	UINT32 version;

	if (app_bs->GetMemoryMap(&size, (EFI_MEMORY_DESCRIPTOR *)m->buf, &key, &dsize, &version) !=
	    EFI_SUCCESS)
		return 0;
	return key;
}

APP_TEST(map_change_signalled_by_pages)
{
	EFI_PHYSICAL_ADDRESS addr = 0;
	UINTN n = 0, before;
	EFI_EVENT e;

	if (!CHECK_STATUS(watch(count_notify, &n, &e), EFI_SUCCESS))
		return;
	/* At TPL_APPLICATION the notification has run by the time the service returns. */
	before = n;
	if (CHECK_STATUS(app_bs->AllocatePages(AllocateAnyPages, EfiLoaderData, 2, &addr),
			 EFI_SUCCESS)) {
		CHECK(n > before);
		before = n;
		CHECK_STATUS(app_bs->FreePages(addr, 2), EFI_SUCCESS);
		CHECK(n > before);
	}
	/* A failed call changes nothing. */
	before = n;
	EFI_TPL old = app_bs->RaiseTPL(TPL_NOTIFY);
	CHECK_STATUS(app_bs->FreePages(addr, 2), EFI_NOT_FOUND);
	app_bs->RestoreTPL(old);
	CHECK_EQ(n, before);
	app_bs->CloseEvent(e);
	/* A closed event is no longer a member. */
	before = n;
	if (CHECK_STATUS(app_bs->AllocatePages(AllocateAnyPages, EfiLoaderData, 1, &addr),
			 EFI_SUCCESS))
		app_bs->FreePages(addr, 1);
	CHECK_EQ(n, before);
}

APP_TEST(map_change_waits_for_the_tpl)
{
	EFI_PHYSICAL_ADDRESS addr = 0;
	UINTN n = 0, held;
	EFI_EVENT e;

	if (!CHECK_STATUS(watch(count_notify, &n, &e), EFI_SUCCESS))
		return;
	EFI_TPL old = app_bs->RaiseTPL(TPL_NOTIFY);
	EFI_STATUS sa = app_bs->AllocatePages(AllocateAnyPages, EfiLoaderData, 1, &addr);
	EFI_STATUS sf = sa == EFI_SUCCESS ? app_bs->FreePages(addr, 1) : EFI_NOT_STARTED;
	held = n;
	app_bs->RestoreTPL(old);
	CHECK_STATUS(sa, EFI_SUCCESS);
	CHECK_STATUS(sf, EFI_SUCCESS);
	/* Signalled twice while the notification could not run: it runs once. */
	CHECK_EQ(held, 0);
	CHECK_EQ(n, 1);
	app_bs->CloseEvent(e);
}

/* Allocates a pool block at TPL_NOTIFY; *signalled tells whether the group was signalled,
 * *changed whether the map key moved. */
static EFI_STATUS pool_step(struct mmap *m, UINTN size, void **p, bool *changed, bool *signalled)
{
	UINTN n = 0;
	EFI_EVENT e;
	EFI_STATUS status = watch(count_notify, &n, &e);

	if (EFI_ERROR(status))
		return status;
	EFI_TPL old = app_bs->RaiseTPL(TPL_NOTIFY);
	n = 0; /* what came before ran at the caller's TPL */
	UINTN key = key_now(m);
	status = app_bs->AllocatePool(EfiLoaderData, size, p);
	*changed = key_now(m) != key || !key;
	app_bs->RestoreTPL(old);
	*signalled = n != 0;
	app_bs->CloseEvent(e);
	return status;
}

APP_TEST(map_change_follows_pool_growth)
{
	static const UINTN sizes[] = {24, 24, 200, 3000, 64 * 1024};
	void *p[ARRAY_SIZE(sizes)] = {0};
	bool changed[ARRAY_SIZE(sizes)], signalled[ARRAY_SIZE(sizes)];
	struct mmap m;

	if (!CHECK_STATUS(mmap_get(&m), EFI_SUCCESS))
		return;
	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
		if (!CHECK_STATUS(pool_step(&m, sizes[i], &p[i], &changed[i], &signalled[i]),
				  EFI_SUCCESS))
			continue;
		/* Signalled exactly when the map changed. */
		CHECK_EQ(signalled[i], changed[i]);
	}
	/* A second small block right after the first fits in the pages the first came from
	 * (what a pool is for): no change, no signal. Large blocks take pages of their own. */
	if (p[1]) {
		CHECK(!changed[1]);
		CHECK(!signalled[1]);
	}
	if (p[4])
		CHECK(signalled[4]);
	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++)
		if (p[i])
			app_bs->FreePool(p[i]);
	mmap_free(&m);
}

struct allocating_ctx {
	UINTN runs;
	EFI_STATUS status;
};

/* The first time it runs, allocates and frees pages: a change of its own. */
static void EFIAPI allocating_notify(EFI_EVENT event, void *p)
{
	struct allocating_ctx *ctx = p;
	EFI_PHYSICAL_ADDRESS addr = 0;

	if (ctx->runs++)
		return;
	ctx->status = app_bs->AllocatePages(AllocateAnyPages, EfiBootServicesData, 3, &addr);
	if (ctx->status == EFI_SUCCESS)
		ctx->status = app_bs->FreePages(addr, 3);
}

APP_TEST(map_change_notification_may_allocate)
{
	struct allocating_ctx ctx = {0, EFI_NOT_STARTED};
	EFI_PHYSICAL_ADDRESS addr = 0;
	EFI_EVENT e = NULL;

	if (!CHECK_STATUS(app_bs->CreateEventEx(EVT_NOTIFY_SIGNAL, TPL_CALLBACK, allocating_notify,
						&ctx, &map_change_group, &e),
			  EFI_SUCCESS))
		return;
	if (CHECK_STATUS(app_bs->AllocatePages(AllocateAnyPages, EfiLoaderData, 1, &addr),
			 EFI_SUCCESS)) {
		/* The notification's own change signals it again, after it returned. */
		CHECK_STATUS(ctx.status, EFI_SUCCESS);
		CHECK(ctx.runs >= 2);
		CHECK_EQ(memory_type_at(addr), EfiLoaderData);
		CHECK_STATUS(app_bs->FreePages(addr, 1), EFI_SUCCESS);
	}
	app_bs->CloseEvent(e);
}
