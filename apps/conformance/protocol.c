/* Protocol handler services (UEFI 2.10, 7.3): installing, reinstalling and uninstalling
 * interfaces, protocol notifications, handle and device-path searches. OpenProtocol and
 * its relatives are in open.c. */
#define APP_TEST_SUITE "40_protocol"
#include "conformance.h"

/* Interfaces are just distinct addresses; a test protocol has no functions. */
static UINT64 iface[8];

static EFI_GUID *P(unsigned n)
{
	return tguid(G_PROTO + n);
}

static EFI_HANDLE install(EFI_HANDLE h, EFI_GUID *proto, void *interface)
{
	if (app_bs->InstallProtocolInterface(&h, proto, EFI_NATIVE_INTERFACE, interface) !=
	    EFI_SUCCESS)
		return NULL;
	return h;
}

static void uninstall(EFI_HANDLE h, EFI_GUID *proto, void *interface)
{
	if (h)
		app_bs->UninstallProtocolInterface(h, proto, interface);
}

static void *get(EFI_HANDLE h, EFI_GUID *proto)
{
	void *i = (void *)(UINTN)0xdead;

	if (app_bs->HandleProtocol(h, proto, &i) != EFI_SUCCESS)
		return (void *)(UINTN)0xbad;
	return i;
}

APP_TEST(install_creates_handle)
{
	EFI_HANDLE h = NULL;

	if (!CHECK_STATUS(
		app_bs->InstallProtocolInterface(&h, P(0), EFI_NATIVE_INTERFACE, &iface[0]),
		EFI_SUCCESS))
		return;
	CHECK(h != NULL);
	CHECK(get(h, P(0)) == &iface[0]);
	CHECK(handle_listed(h, NULL));
	CHECK(handle_listed(h, P(0)));
	/* Installing on an existing handle returns that handle unchanged. */
	EFI_HANDLE same = h;
	CHECK_STATUS(app_bs->InstallProtocolInterface(&same, P(1), EFI_NATIVE_INTERFACE, &iface[1]),
		     EFI_SUCCESS);
	CHECK(same == h);
	CHECK_STATUS(app_bs->UninstallProtocolInterface(h, P(1), &iface[1]), EFI_SUCCESS);
	CHECK_STATUS(app_bs->UninstallProtocolInterface(h, P(0), &iface[0]), EFI_SUCCESS);
	/* Removing the last interface frees the handle. */
	CHECK(!handle_listed(h, NULL));
}

APP_TEST(install_argument_checks)
{
	EFI_HANDLE h = NULL;
	struct {
		UINT64 junk[8];
	} not_a_handle = {{0}};
	EFI_HANDLE fake = &not_a_handle;

	CHECK_STATUS(app_bs->InstallProtocolInterface(NULL, P(0), EFI_NATIVE_INTERFACE, &iface[0]),
		     EFI_INVALID_PARAMETER);
	CHECK_STATUS(app_bs->InstallProtocolInterface(&h, NULL, EFI_NATIVE_INTERFACE, &iface[0]),
		     EFI_INVALID_PARAMETER);
	CHECK_STATUS(app_bs->InstallProtocolInterface(&h, P(0), (EFI_INTERFACE_TYPE)1, &iface[0]),
		     EFI_INVALID_PARAMETER);
	CHECK_STATUS(app_bs->InstallProtocolInterface(&fake, P(0), EFI_NATIVE_INTERFACE, &iface[0]),
		     EFI_INVALID_PARAMETER);
	/* None of the failures created anything. */
	CHECK_EQ(handle_count(P(0)), 0);
}

APP_TEST(install_same_protocol_twice)
{
	EFI_HANDLE h = install(NULL, P(0), &iface[0]);

	if (!CHECK(h))
		return;
	EFI_HANDLE again = h;
	CHECK_STATUS(
	    app_bs->InstallProtocolInterface(&again, P(0), EFI_NATIVE_INTERFACE, &iface[1]),
	    EFI_INVALID_PARAMETER);
	CHECK_STATUS(
	    app_bs->InstallProtocolInterface(&again, P(0), EFI_NATIVE_INTERFACE, &iface[0]),
	    EFI_INVALID_PARAMETER);
	CHECK(get(h, P(0)) == &iface[0]);
	CHECK_EQ(handle_count(P(0)), 1);
	uninstall(h, P(0), &iface[0]);
}

APP_TEST(install_null_interface)
{
	EFI_HANDLE h = install(NULL, P(0), NULL);
	void *i = (void *)(UINTN)0xdead;

	if (!CHECK(h))
		return;
	CHECK_STATUS(app_bs->HandleProtocol(h, P(0), &i), EFI_SUCCESS);
	CHECK(i == NULL);
	CHECK_STATUS(app_bs->UninstallProtocolInterface(h, P(0), NULL), EFI_SUCCESS);
}

APP_TEST(handle_protocol_checks)
{
	EFI_HANDLE h = install(NULL, P(0), &iface[0]);
	void *i = (void *)(UINTN)0xdead;

	if (!CHECK(h))
		return;
	CHECK_STATUS(app_bs->HandleProtocol(h, P(1), &i), EFI_UNSUPPORTED);
	CHECK_STATUS(app_bs->HandleProtocol(NULL, P(0), &i), EFI_INVALID_PARAMETER);
	CHECK_STATUS(app_bs->HandleProtocol(h, NULL, &i), EFI_INVALID_PARAMETER);
	CHECK_STATUS(app_bs->HandleProtocol(h, P(0), NULL), EFI_INVALID_PARAMETER);
	uninstall(h, P(0), &iface[0]);
}

APP_TEST(uninstall_checks)
{
	EFI_HANDLE h = install(NULL, P(0), &iface[0]);

	if (!CHECK(h))
		return;
	CHECK_STATUS(app_bs->UninstallProtocolInterface(h, P(0), &iface[1]), EFI_NOT_FOUND);
	CHECK_STATUS(app_bs->UninstallProtocolInterface(h, P(1), &iface[0]), EFI_NOT_FOUND);
	CHECK_STATUS(app_bs->UninstallProtocolInterface(NULL, P(0), &iface[0]),
		     EFI_INVALID_PARAMETER);
	CHECK_STATUS(app_bs->UninstallProtocolInterface(h, NULL, &iface[0]), EFI_INVALID_PARAMETER);
	CHECK(get(h, P(0)) == &iface[0]);
	CHECK_STATUS(app_bs->UninstallProtocolInterface(h, P(0), &iface[0]), EFI_SUCCESS);
	CHECK_EQ(handle_count(P(0)), 0);
}

APP_TEST(reinstall_replaces_interface)
{
	EFI_HANDLE h = install(NULL, P(0), &iface[0]);

	if (!CHECK(h))
		return;
	CHECK_STATUS(app_bs->ReinstallProtocolInterface(h, P(0), &iface[0], &iface[1]),
		     EFI_SUCCESS);
	CHECK(get(h, P(0)) == &iface[1]);
	CHECK_STATUS(app_bs->ReinstallProtocolInterface(h, P(0), &iface[0], &iface[2]),
		     EFI_NOT_FOUND);
	CHECK_STATUS(app_bs->ReinstallProtocolInterface(h, P(1), &iface[1], &iface[2]),
		     EFI_NOT_FOUND);
	CHECK_STATUS(app_bs->ReinstallProtocolInterface(NULL, P(0), &iface[1], &iface[2]),
		     EFI_INVALID_PARAMETER);
	CHECK_STATUS(app_bs->ReinstallProtocolInterface(h, NULL, &iface[1], &iface[2]),
		     EFI_INVALID_PARAMETER);
	CHECK(get(h, P(0)) == &iface[1]);
	CHECK_STATUS(app_bs->ReinstallProtocolInterface(h, P(0), &iface[1], &iface[1]),
		     EFI_SUCCESS);
	CHECK(get(h, P(0)) == &iface[1]);
	CHECK_EQ(handle_count(P(0)), 1);
	uninstall(h, P(0), &iface[1]);
}

APP_TEST(register_protocol_notify_checks)
{
	UINTN n = 0;
	EFI_EVENT e = NULL;
	void *reg = NULL;

	if (!CHECK_STATUS(
		app_bs->CreateEvent(EVT_NOTIFY_SIGNAL, TPL_CALLBACK, count_notify, &n, &e),
		EFI_SUCCESS))
		return;
	CHECK_STATUS(app_bs->RegisterProtocolNotify(NULL, e, &reg), EFI_INVALID_PARAMETER);
	CHECK_STATUS(app_bs->RegisterProtocolNotify(P(2), NULL, &reg), EFI_INVALID_PARAMETER);
	CHECK_STATUS(app_bs->RegisterProtocolNotify(P(2), e, NULL), EFI_INVALID_PARAMETER);
	app_bs->CloseEvent(e);
}

static EFI_STATUS next_new_handle(void *reg, EFI_HANDLE *out, UINTN *size)
{
	EFI_HANDLE buf[4] = {0};
	EFI_STATUS status;

	*size = sizeof(buf);
	status = app_bs->LocateHandle(ByRegisterNotify, NULL, reg, size, buf);
	*out = buf[0];
	return status;
}

struct registration {
	UINTN n;
	EFI_EVENT e;
	void *reg;
};

static bool register_notify(struct registration *r, EFI_GUID *proto)
{
	mem_set(r, 0, sizeof(*r));
	if (!CHECK_STATUS(
		app_bs->CreateEvent(EVT_NOTIFY_SIGNAL, TPL_CALLBACK, count_notify, &r->n, &r->e),
		EFI_SUCCESS))
		return false;
	if (CHECK_STATUS(app_bs->RegisterProtocolNotify(proto, r->e, &r->reg), EFI_SUCCESS) &&
	    CHECK(r->reg != NULL))
		return true;
	app_bs->CloseEvent(r->e);
	return false;
}

APP_TEST(protocol_notify_reports_new_handles)
{
	struct registration r;
	EFI_HANDLE h[3] = {0}, got = NULL;
	UINTN size;

	if (!register_notify(&r, P(2)))
		return;
	CHECK_EQ(r.n, 0);
	CHECK_STATUS(next_new_handle(r.reg, &got, &size), EFI_NOT_FOUND);
	h[0] = install(NULL, P(2), &iface[0]);
	CHECK_EQ(r.n, 1);
	CHECK_STATUS(next_new_handle(r.reg, &got, &size), EFI_SUCCESS);
	CHECK(got == h[0]);
	CHECK_EQ(size, sizeof(EFI_HANDLE));
	CHECK_STATUS(next_new_handle(r.reg, &got, &size), EFI_NOT_FOUND);
	/* One handle per call, oldest first, however large the buffer. */
	h[1] = install(NULL, P(2), &iface[1]);
	h[2] = install(NULL, P(2), &iface[2]);
	CHECK_EQ(r.n, 3);
	CHECK_STATUS(next_new_handle(r.reg, &got, &size), EFI_SUCCESS);
	CHECK(got == h[1]);
	CHECK_EQ(size, sizeof(EFI_HANDLE));
	CHECK_STATUS(next_new_handle(r.reg, &got, &size), EFI_SUCCESS);
	CHECK(got == h[2]);
	CHECK_STATUS(next_new_handle(r.reg, &got, &size), EFI_NOT_FOUND);
	size = sizeof(EFI_HANDLE);
	CHECK_STATUS(app_bs->LocateHandle(ByRegisterNotify, NULL, NULL, &size, &got),
		     EFI_INVALID_PARAMETER);
	app_bs->CloseEvent(r.e);
	for (int i = 0; i < 3; i++)
		uninstall(h[i], P(2), &iface[i]);
}

APP_TEST(protocol_notify_on_reinstall_until_closed)
{
	struct registration r;
	EFI_HANDLE h = install(NULL, P(2), &iface[0]), got = NULL;
	UINTN size;

	if (!CHECK(h) || !register_notify(&r, P(2))) {
		uninstall(h, P(2), &iface[0]);
		return;
	}
	/* A reinstall counts as a new installation, even of the same interface. */
	CHECK_STATUS(app_bs->ReinstallProtocolInterface(h, P(2), &iface[0], &iface[0]),
		     EFI_SUCCESS);
	CHECK_EQ(r.n, 1);
	CHECK_STATUS(next_new_handle(r.reg, &got, &size), EFI_SUCCESS);
	CHECK(got == h);
	/* Closing the event ends the registration. */
	CHECK_STATUS(app_bs->CloseEvent(r.e), EFI_SUCCESS);
	EFI_HANDLE late = install(NULL, P(2), &iface[3]);
	CHECK(late != NULL);
	CHECK_EQ(r.n, 1);
	uninstall(late, P(2), &iface[3]);
	uninstall(h, P(2), &iface[0]);
}

APP_TEST(locate_protocol_with_registration)
{
	UINTN n = 0;
	EFI_EVENT e = NULL;
	void *reg = NULL, *i = NULL;
	EFI_HANDLE h = NULL;

	if (!CHECK_STATUS(
		app_bs->CreateEvent(EVT_NOTIFY_SIGNAL, TPL_CALLBACK, count_notify, &n, &e),
		EFI_SUCCESS))
		return;
	if (CHECK_STATUS(app_bs->RegisterProtocolNotify(P(3), e, &reg), EFI_SUCCESS)) {
		i = (void *)(UINTN)0xdead;
		CHECK_STATUS(app_bs->LocateProtocol(P(3), reg, &i), EFI_NOT_FOUND);
		CHECK(i == NULL);
		h = install(NULL, P(3), &iface[4]);
		CHECK_STATUS(app_bs->LocateProtocol(P(3), reg, &i), EFI_SUCCESS);
		CHECK(i == &iface[4]);
		i = (void *)(UINTN)0xdead;
		CHECK_STATUS(app_bs->LocateProtocol(P(3), reg, &i), EFI_NOT_FOUND);
		CHECK(i == NULL);
		/* Without a registration the same interface is found every time. */
		CHECK_STATUS(app_bs->LocateProtocol(P(3), NULL, &i), EFI_SUCCESS);
		CHECK(i == &iface[4]);
	}
	app_bs->CloseEvent(e);
	uninstall(h, P(3), &iface[4]);
}

APP_TEST(locate_protocol_checks)
{
	EFI_HANDLE h = install(NULL, P(4), &iface[0]);
	void *i = (void *)(UINTN)0xdead;

	CHECK_STATUS(app_bs->LocateProtocol(P(4), NULL, &i), EFI_SUCCESS);
	CHECK(i == &iface[0]);
	i = (void *)(UINTN)0xdead;
	CHECK_STATUS(app_bs->LocateProtocol(P(5), NULL, &i), EFI_NOT_FOUND);
	CHECK(i == NULL);
	CHECK_STATUS(app_bs->LocateProtocol(P(4), NULL, NULL), EFI_INVALID_PARAMETER);
	CHECK_STATUS(app_bs->LocateProtocol(NULL, NULL, &i), EFI_INVALID_PARAMETER);
	uninstall(h, P(4), &iface[0]);
}

APP_TEST(locate_handle_all_handles)
{
	UINTN size = 0, count;
	EFI_HANDLE *buf;
	UINTN dups = 0;
	bool image = false, conout = false;

	if (!CHECK_STATUS(app_bs->LocateHandle(AllHandles, NULL, NULL, &size, NULL),
			  EFI_BUFFER_TOO_SMALL) ||
	    !CHECK(size >= sizeof(EFI_HANDLE) && size % sizeof(EFI_HANDLE) == 0))
		return;
	count = size / sizeof(EFI_HANDLE);
	buf = app_alloc(size + 2 * sizeof(EFI_HANDLE));
	if (!CHECK(buf))
		return;
	UINTN small = sizeof(EFI_HANDLE);
	if (count > 1) {
		CHECK_STATUS(app_bs->LocateHandle(AllHandles, NULL, NULL, &small, buf),
			     EFI_BUFFER_TOO_SMALL);
		CHECK_EQ(small, size);
	}
	UINTN big = size + 2 * sizeof(EFI_HANDLE);
	CHECK_STATUS(app_bs->LocateHandle(AllHandles, NULL, NULL, &big, buf), EFI_SUCCESS);
	CHECK_EQ(big, size);
	for (UINTN i = 0; i < count; i++) {
		image |= buf[i] == app_image;
		conout |= buf[i] == app_st->ConsoleOutHandle;
		for (UINTN j = i + 1; j < count; j++)
			dups += buf[i] == buf[j];
	}
	CHECK(image);
	CHECK(conout);
	CHECK_EQ(dups, 0);
	CHECK_EQ(handle_count(NULL), count);
	app_free(buf);
}

APP_TEST(locate_handle_by_protocol)
{
	EFI_HANDLE h0 = install(NULL, P(5), &iface[0]);
	EFI_HANDLE h1 = install(NULL, P(5), &iface[1]);
	EFI_HANDLE buf[4] = {0};
	UINTN size = sizeof(buf);

	if (CHECK(h0 && h1) &&
	    CHECK_STATUS(app_bs->LocateHandle(ByProtocol, P(5), NULL, &size, buf), EFI_SUCCESS)) {
		CHECK_EQ(size, 2 * sizeof(EFI_HANDLE));
		CHECK((buf[0] == h0 && buf[1] == h1) || (buf[0] == h1 && buf[1] == h0));
	}
	size = sizeof(EFI_HANDLE);
	CHECK_STATUS(app_bs->LocateHandle(ByProtocol, P(5), NULL, &size, buf),
		     EFI_BUFFER_TOO_SMALL);
	CHECK_EQ(size, 2 * sizeof(EFI_HANDLE));
	size = sizeof(buf);
	CHECK_STATUS(app_bs->LocateHandle(ByProtocol, P(6), NULL, &size, buf), EFI_NOT_FOUND);
	size = sizeof(buf);
	CHECK_STATUS(app_bs->LocateHandle(ByProtocol, NULL, NULL, &size, buf),
		     EFI_INVALID_PARAMETER);
	CHECK_STATUS(app_bs->LocateHandle((EFI_LOCATE_SEARCH_TYPE)3, P(5), NULL, &size, buf),
		     EFI_INVALID_PARAMETER);
	CHECK_STATUS(app_bs->LocateHandle(ByProtocol, P(5), NULL, NULL, buf),
		     EFI_INVALID_PARAMETER);
	size = sizeof(buf);
	CHECK_STATUS(app_bs->LocateHandle(ByProtocol, P(5), NULL, &size, NULL),
		     EFI_INVALID_PARAMETER);
	uninstall(h0, P(5), &iface[0]);
	uninstall(h1, P(5), &iface[1]);
}

APP_TEST(locate_handle_buffer)
{
	EFI_HANDLE h0 = install(NULL, P(5), &iface[0]);
	EFI_HANDLE h1 = install(NULL, P(5), &iface[1]);
	EFI_HANDLE *buf = NULL;
	UINTN n = 0;

	if (CHECK(h0 && h1) &&
	    CHECK_STATUS(app_bs->LocateHandleBuffer(ByProtocol, P(5), NULL, &n, &buf),
			 EFI_SUCCESS)) {
		CHECK_EQ(n, 2);
		CHECK(buf && ((buf[0] == h0 && buf[1] == h1) || (buf[0] == h1 && buf[1] == h0)));
		CHECK_STATUS(app_bs->FreePool(buf), EFI_SUCCESS);
	}
	CHECK_STATUS(app_bs->LocateHandleBuffer(ByProtocol, P(6), NULL, &n, &buf), EFI_NOT_FOUND);
	CHECK_STATUS(app_bs->LocateHandleBuffer(ByProtocol, P(5), NULL, NULL, &buf),
		     EFI_INVALID_PARAMETER);
	CHECK_STATUS(app_bs->LocateHandleBuffer(ByProtocol, P(5), NULL, &n, NULL),
		     EFI_INVALID_PARAMETER);
	CHECK_STATUS(app_bs->LocateHandleBuffer(ByProtocol, NULL, NULL, &n, &buf),
		     EFI_INVALID_PARAMETER);
	CHECK_STATUS(app_bs->LocateHandleBuffer((EFI_LOCATE_SEARCH_TYPE)7, P(5), NULL, &n, &buf),
		     EFI_INVALID_PARAMETER);
	uninstall(h0, P(5), &iface[0]);
	uninstall(h1, P(5), &iface[1]);
}

APP_TEST(protocols_per_handle)
{
	EFI_HANDLE h = install(NULL, P(6), &iface[0]);
	EFI_GUID **guids = NULL;
	UINTN n = 0;

	if (!CHECK(h))
		return;
	install(h, P(7), NULL);
	if (CHECK_STATUS(app_bs->ProtocolsPerHandle(h, &guids, &n), EFI_SUCCESS)) {
		CHECK_EQ(n, 2);
		bool six = false, seven = false;
		for (UINTN i = 0; i < n && guids; i++) {
			six |= guid_eq(guids[i], P(6));
			seven |= guid_eq(guids[i], P(7));
		}
		CHECK(six && seven);
		CHECK_STATUS(app_bs->FreePool(guids), EFI_SUCCESS);
	}
	CHECK_STATUS(app_bs->ProtocolsPerHandle(NULL, &guids, &n), EFI_INVALID_PARAMETER);
	CHECK_STATUS(app_bs->ProtocolsPerHandle(h, NULL, &n), EFI_INVALID_PARAMETER);
	CHECK_STATUS(app_bs->ProtocolsPerHandle(h, &guids, NULL), EFI_INVALID_PARAMETER);
	uninstall(h, P(7), NULL);
	uninstall(h, P(6), &iface[0]);
}

APP_TEST(install_multiple_and_uninstall_multiple)
{
	EFI_HANDLE h = NULL;

	if (!CHECK_STATUS(app_bs->InstallMultipleProtocolInterfaces(&h, P(8), &iface[0], P(9),
								    &iface[1], NULL),
			  EFI_SUCCESS))
		return;
	CHECK(h != NULL);
	CHECK(get(h, P(8)) == &iface[0]);
	CHECK(get(h, P(9)) == &iface[1]);
	CHECK_STATUS(
	    app_bs->UninstallMultipleProtocolInterfaces(h, P(8), &iface[0], P(9), &iface[1], NULL),
	    EFI_SUCCESS);
	CHECK(!handle_listed(h, NULL));
	CHECK_STATUS(app_bs->InstallMultipleProtocolInterfaces(NULL, P(8), &iface[0], NULL),
		     EFI_INVALID_PARAMETER);
	CHECK_EQ(handle_count(P(8)), 0);
}

APP_TEST(install_multiple_is_all_or_nothing)
{
	EFI_HANDLE h = NULL, existing = install(NULL, P(10), &iface[5]);

	/* A duplicate in the list: nothing may stay installed. */
	CHECK_STATUS(app_bs->InstallMultipleProtocolInterfaces(&h, P(8), &iface[0], P(9), &iface[1],
							       P(8), &iface[2], NULL),
		     EFI_INVALID_PARAMETER);
	CHECK_EQ(handle_count(P(8)), 0);
	CHECK_EQ(handle_count(P(9)), 0);
	/* A protocol already on the handle. */
	if (CHECK(existing)) {
		h = existing;
		CHECK_STATUS(app_bs->InstallMultipleProtocolInterfaces(&h, P(8), &iface[0], P(10),
								       &iface[6], NULL),
			     EFI_INVALID_PARAMETER);
		CHECK_EQ(handle_count(P(8)), 0);
		CHECK(get(existing, P(10)) == &iface[5]);
	}
	uninstall(existing, P(10), &iface[5]);
}

APP_TEST(install_multiple_rejects_duplicate_device_path)
{
	EFI_GUID *g[2] = {P(11), P(12)};
	EFI_DEVICE_PATH_PROTOCOL *dp = dp_vendor_path(g, 1);
	EFI_DEVICE_PATH_PROTOCOL *copy = dp_vendor_path(g, 1);
	EFI_DEVICE_PATH_PROTOCOL *longer = dp_vendor_path(g, 2);
	EFI_HANDLE h0 = NULL, h1 = NULL, h2 = NULL;

	if (!CHECK(dp && copy && longer))
		goto out;
	CHECK_STATUS(app_bs->InstallMultipleProtocolInterfaces(&h0, &guid_device_path, dp, NULL),
		     EFI_SUCCESS);
	/* The same path on another handle (in another buffer) is refused before anything
	 * is installed. */
	CHECK_STATUS(app_bs->InstallMultipleProtocolInterfaces(&h1, P(8), &iface[0],
							       &guid_device_path, copy, NULL),
		     EFI_ALREADY_STARTED);
	CHECK_EQ(handle_count(P(8)), 0);
	/* A path that merely starts with it is different. */
	CHECK_STATUS(
	    app_bs->InstallMultipleProtocolInterfaces(&h2, &guid_device_path, longer, NULL),
	    EFI_SUCCESS);
	uninstall(h0, &guid_device_path, dp);
	uninstall(h2, &guid_device_path, longer);
out:
	app_free(dp);
	app_free(copy);
	app_free(longer);
}

APP_TEST(uninstall_multiple_restores_on_failure)
{
	EFI_HANDLE h = NULL;

	if (!CHECK_STATUS(app_bs->InstallMultipleProtocolInterfaces(&h, P(8), &iface[0], P(9),
								    &iface[1], NULL),
			  EFI_SUCCESS))
		return;
	CHECK_STATUS(
	    app_bs->UninstallMultipleProtocolInterfaces(h, P(8), &iface[0], P(9), &iface[2], NULL),
	    EFI_INVALID_PARAMETER);
	CHECK(get(h, P(8)) == &iface[0]);
	CHECK(get(h, P(9)) == &iface[1]);
	CHECK_STATUS(
	    app_bs->UninstallMultipleProtocolInterfaces(h, P(8), &iface[0], P(9), &iface[1], NULL),
	    EFI_SUCCESS);
}

struct dp_fixture {
	EFI_DEVICE_PATH_PROTOCOL *path[3]; /* V1, V1/V2, V1/V2/V3 */
	EFI_HANDLE h[3];
};

static bool dp_fixture_setup(struct dp_fixture *f)
{
	EFI_GUID *g[3] = {P(13), P(14), P(15)};

	mem_set(f, 0, sizeof(*f));
	for (int i = 0; i < 3; i++) {
		f->path[i] = dp_vendor_path(g, (size_t)i + 1);
		if (!f->path[i])
			return false;
	}
	/* The protocol searched for sits on the first two handles only. */
	for (int i = 0; i < 3; i++) {
		EFI_STATUS status = app_bs->InstallMultipleProtocolInterfaces(
		    &f->h[i], &guid_device_path, f->path[i], i < 2 ? P(12) : NULL, &iface[i], NULL);
		if (status != EFI_SUCCESS)
			return false;
	}
	return true;
}

static void dp_fixture_teardown(struct dp_fixture *f)
{
	for (int i = 0; i < 3; i++) {
		if (f->h[i] && i < 2)
			uninstall(f->h[i], P(12), &iface[i]);
		if (f->h[i])
			uninstall(f->h[i], &guid_device_path, f->path[i]);
		app_free(f->path[i]);
	}
}

APP_TEST(locate_device_path_longest_match)
{
	struct dp_fixture f;
	EFI_GUID *g[4] = {P(13), P(14), P(15), P(16)};
	EFI_DEVICE_PATH_PROTOCOL *query = dp_vendor_path(g, 4), *rest;
	EFI_HANDLE dev = NULL;
	const UINTN node = sizeof(VENDOR_DEVICE_PATH);

	if (CHECK(dp_fixture_setup(&f)) && CHECK(query)) {
		rest = query;
		CHECK_STATUS(app_bs->LocateDevicePath(P(12), &rest, &dev), EFI_SUCCESS);
		CHECK(dev == f.h[1]);
		CHECK_EQ((UINT8 *)rest - (UINT8 *)query, 2 * node);
		rest = query;
		dev = NULL;
		CHECK_STATUS(app_bs->LocateDevicePath(&guid_device_path, &rest, &dev), EFI_SUCCESS);
		CHECK(dev == f.h[2]);
		CHECK_EQ((UINT8 *)rest - (UINT8 *)query, 3 * node);
		/* An exact match leaves the path at its end node. */
		rest = f.path[1];
		dev = NULL;
		CHECK_STATUS(app_bs->LocateDevicePath(P(12), &rest, &dev), EFI_SUCCESS);
		CHECK(dev == f.h[1]);
		CHECK(dp_is_end(rest));
	}
	dp_fixture_teardown(&f);
	app_free(query);
}

APP_TEST(locate_device_path_checks)
{
	struct dp_fixture f;
	EFI_GUID *other[1] = {P(17)};
	EFI_DEVICE_PATH_PROTOCOL *unrelated = dp_vendor_path(other, 1), *rest;
	EFI_HANDLE dev = NULL;

	if (CHECK(dp_fixture_setup(&f)) && CHECK(unrelated)) {
		rest = unrelated;
		CHECK_STATUS(app_bs->LocateDevicePath(P(12), &rest, &dev), EFI_NOT_FOUND);
		rest = f.path[2];
		CHECK_STATUS(app_bs->LocateDevicePath(P(16), &rest, &dev), EFI_NOT_FOUND);
		rest = f.path[2];
		CHECK_STATUS(app_bs->LocateDevicePath(NULL, &rest, &dev), EFI_INVALID_PARAMETER);
		CHECK_STATUS(app_bs->LocateDevicePath(P(12), NULL, &dev), EFI_INVALID_PARAMETER);
		rest = f.path[2];
		CHECK_STATUS(app_bs->LocateDevicePath(P(12), &rest, NULL), EFI_INVALID_PARAMETER);
	}
	dp_fixture_teardown(&f);
	app_free(unrelated);
}
