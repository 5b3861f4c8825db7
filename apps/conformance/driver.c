/* The UEFI driver model as the boot services implement it (UEFI 2.10, 7.3:
 * ConnectController, DisconnectController, and how uninstalling, reinstalling and
 * exclusive opens stop drivers). The drivers are EFI_DRIVER_BINDING_PROTOCOL instances
 * installed by this application on handles of their own. */
#define APP_TEST_SUITE "50_driver"
#include "conformance.h"
#include <efi/protocol/driver_binding.h>

#define BY_DRIVER EFI_OPEN_PROTOCOL_BY_DRIVER
#define BY_CHILD EFI_OPEN_PROTOCOL_BY_CHILD_CONTROLLER

enum { OP_START = 1, OP_STOP = 2 };

struct drv_log {
	UINTN count;
	struct {
		UINTN driver, op, children;
		EFI_HANDLE controller;
	} entry[24];
};

/* A test driver: drives `bus` (opened BY_DRIVER); with `child` set, Start creates
 * `nchildren` child handles carrying it. */
struct tdrv {
	EFI_DRIVER_BINDING_PROTOCOL binding;
	UINTN id;
	EFI_GUID *bus, *child;
	UINTN nchildren;
	EFI_STATUS start_status, stop_status;
	UINTN supported, started, stopped;
	EFI_DEVICE_PATH_PROTOCOL *expect_remaining;
	UINTN remaining_seen, remaining_equal;
	void *last_interface;
	EFI_HANDLE children[4], last_stop_child;
	UINT64 child_iface;
	struct drv_log *log;
};

static EFI_GUID *G(unsigned n)
{
	return tguid(G_DRIVER + n);
}

static void log_op(struct tdrv *d, UINTN op, EFI_HANDLE ctrl, UINTN children)
{
	struct drv_log *log = d->log;

	if (log && log->count < ARRAY_SIZE(log->entry)) {
		log->entry[log->count].driver = d->id;
		log->entry[log->count].op = op;
		log->entry[log->count].children = children;
		log->entry[log->count].controller = ctrl;
		log->count++;
	}
}

static EFI_STATUS EFIAPI tdrv_supported(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE ctrl,
					EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	struct tdrv *d = container_of(this, struct tdrv, binding);
	void *i;
	EFI_STATUS status;

	d->supported++;
	if (d->expect_remaining) {
		d->remaining_seen++;
		d->remaining_equal += remaining && dp_equal(remaining, d->expect_remaining);
	}
	status = app_bs->OpenProtocol(ctrl, d->bus, &i, this->DriverBindingHandle, ctrl, BY_DRIVER);
	if (EFI_ERROR(status))
		return status;
	app_bs->CloseProtocol(ctrl, d->bus, this->DriverBindingHandle, ctrl);
	return EFI_SUCCESS;
}

static void create_children(struct tdrv *d, EFI_HANDLE ctrl)
{
	for (UINTN k = 0; k < d->nchildren && k < ARRAY_SIZE(d->children); k++) {
		EFI_HANDLE h = NULL;
		void *i;
		if (app_bs->InstallProtocolInterface(&h, d->child, EFI_NATIVE_INTERFACE,
						     &d->child_iface) != EFI_SUCCESS)
			continue;
		app_bs->OpenProtocol(ctrl, d->bus, &i, d->binding.DriverBindingHandle, h, BY_CHILD);
		d->children[k] = h;
	}
}

static EFI_STATUS EFIAPI tdrv_start(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE ctrl,
				    EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	struct tdrv *d = container_of(this, struct tdrv, binding);
	void *i = NULL;
	EFI_STATUS status;

	status = app_bs->OpenProtocol(ctrl, d->bus, &i, this->DriverBindingHandle, ctrl, BY_DRIVER);
	if (EFI_ERROR(status))
		return status;
	if (EFI_ERROR(d->start_status)) {
		app_bs->CloseProtocol(ctrl, d->bus, this->DriverBindingHandle, ctrl);
		return d->start_status;
	}
	d->started++;
	d->last_interface = i;
	log_op(d, OP_START, ctrl, 0);
	if (d->child)
		create_children(d, ctrl);
	return EFI_SUCCESS;
}

static void destroy_child(struct tdrv *d, EFI_HANDLE ctrl, EFI_HANDLE child)
{
	app_bs->CloseProtocol(ctrl, d->bus, d->binding.DriverBindingHandle, child);
	app_bs->UninstallProtocolInterface(child, d->child, &d->child_iface);
	for (UINTN k = 0; k < ARRAY_SIZE(d->children); k++)
		if (d->children[k] == child)
			d->children[k] = NULL;
}

static EFI_STATUS EFIAPI tdrv_stop(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE ctrl, UINTN n,
				   EFI_HANDLE *child_buffer)
{
	struct tdrv *d = container_of(this, struct tdrv, binding);

	d->stopped++;
	log_op(d, OP_STOP, ctrl, n);
	if (EFI_ERROR(d->stop_status))
		return d->stop_status;
	if (n == 0)
		return app_bs->CloseProtocol(ctrl, d->bus, this->DriverBindingHandle, ctrl);
	d->last_stop_child = child_buffer[0];
	for (UINTN k = 0; k < n; k++)
		destroy_child(d, ctrl, child_buffer[k]);
	return EFI_SUCCESS;
}

static bool tdrv_add(struct tdrv *d, UINTN id, UINT32 version, EFI_GUID *bus, struct drv_log *log)
{
	mem_set(d, 0, sizeof(*d));
	d->binding.Supported = tdrv_supported;
	d->binding.Start = tdrv_start;
	d->binding.Stop = tdrv_stop;
	d->binding.Version = version;
	d->binding.ImageHandle = app_image;
	d->id = id;
	d->bus = bus;
	d->log = log;
	return app_bs->InstallProtocolInterface(&d->binding.DriverBindingHandle,
						&guid_driver_binding, EFI_NATIVE_INTERFACE,
						&d->binding) == EFI_SUCCESS;
}

static void tdrv_remove(struct tdrv *d)
{
	if (d->binding.DriverBindingHandle)
		app_bs->UninstallProtocolInterface(d->binding.DriverBindingHandle,
						   &guid_driver_binding, &d->binding);
	d->binding.DriverBindingHandle = NULL;
}

/* A controller handle with `proto` (interface `iface`) and a keep-alive protocol, so it
 * survives uninstalling `proto`. */
static EFI_HANDLE controller(EFI_GUID *proto, void *iface)
{
	EFI_HANDLE h = NULL;

	if (app_bs->InstallMultipleProtocolInterfaces(&h, proto, iface, G(15), NULL, NULL))
		return NULL;
	return h;
}

static void controller_remove(EFI_HANDLE h, EFI_GUID *proto, void *iface)
{
	if (!h)
		return;
	app_bs->DisconnectController(h, NULL, NULL);
	app_bs->UninstallProtocolInterface(h, proto, iface);
	app_bs->UninstallProtocolInterface(h, G(15), NULL);
}

/* Agents holding `proto` open BY_DRIVER on h. */
static UINTN by_driver_opens(EFI_HANDLE h, EFI_GUID *proto, EFI_HANDLE agent)
{
	EFI_OPEN_PROTOCOL_INFORMATION_ENTRY *info = NULL;
	UINTN n = 0, found = 0;

	if (app_bs->OpenProtocolInformation(h, proto, &info, &n) != EFI_SUCCESS)
		return 0;
	for (UINTN i = 0; i < n; i++)
		found += (info[i].Attributes & BY_DRIVER) && info[i].AgentHandle == agent &&
			 info[i].ControllerHandle == h;
	app_free(info);
	return found;
}

#define V_LOW 0x7fff0010
#define V_HIGH 0x7fff0020

struct pair {
	UINT64 iface;
	EFI_HANDLE ctrl;
	struct tdrv low, high;
};

static bool pair_setup(struct pair *p)
{
	mem_set(p, 0, sizeof(*p));
	p->ctrl = controller(G(0), &p->iface);
	return p->ctrl && tdrv_add(&p->low, 1, V_LOW, G(0), NULL) &&
	       tdrv_add(&p->high, 2, V_HIGH, G(0), NULL);
}

static void pair_teardown(struct pair *p)
{
	controller_remove(p->ctrl, G(0), &p->iface);
	tdrv_remove(&p->low);
	tdrv_remove(&p->high);
}

APP_TEST(connect_highest_version_first)
{
	struct pair p;

	if (CHECK(pair_setup(&p)) &&
	    CHECK_STATUS(app_bs->ConnectController(p.ctrl, NULL, NULL, FALSE), EFI_SUCCESS)) {
		CHECK_EQ(p.high.started, 1);
		CHECK_EQ(p.low.started, 0);
		/* The search restarts after each start; the other driver is asked and
		 * declines. */
		CHECK(p.low.supported >= 1);
		CHECK(p.high.last_interface == &p.iface);
		CHECK_EQ(by_driver_opens(p.ctrl, G(0), p.high.binding.DriverBindingHandle), 1);
		/* Connecting again starts nothing. */
		CHECK_STATUS(app_bs->ConnectController(p.ctrl, NULL, NULL, FALSE), EFI_NOT_FOUND);
		CHECK_EQ(p.high.started, 1);
		CHECK_STATUS(app_bs->DisconnectController(p.ctrl, NULL, NULL), EFI_SUCCESS);
		CHECK_EQ(p.high.stopped, 1);
		CHECK_EQ(p.low.stopped, 0);
		CHECK_EQ(by_driver_opens(p.ctrl, G(0), p.high.binding.DriverBindingHandle), 0);
	}
	pair_teardown(&p);
}

APP_TEST(connect_driver_image_handles_first)
{
	struct pair p;

	if (CHECK(pair_setup(&p))) {
		EFI_HANDLE list[2] = {p.low.binding.DriverBindingHandle, NULL};
		CHECK_STATUS(app_bs->ConnectController(p.ctrl, list, NULL, FALSE), EFI_SUCCESS);
		CHECK_EQ(p.low.started, 1);
		CHECK_EQ(p.high.started, 0);
	}
	pair_teardown(&p);
}

APP_TEST(connect_without_matching_driver)
{
	UINT64 iface = 0;
	EFI_HANDLE ctrl = controller(G(1), &iface);
	EFI_DEVICE_PATH_PROTOCOL end;
	struct pair p;

	/* Drivers exist, but none supports this controller. */
	if (CHECK(pair_setup(&p)) && CHECK(ctrl)) {
		CHECK_STATUS(app_bs->ConnectController(ctrl, NULL, NULL, FALSE), EFI_NOT_FOUND);
		CHECK_STATUS(app_bs->ConnectController(ctrl, NULL, NULL, TRUE), EFI_NOT_FOUND);
		/* Not an error when the remaining path is an end node. */
		dp_set_end(&end);
		CHECK_STATUS(app_bs->ConnectController(ctrl, NULL, &end, FALSE), EFI_SUCCESS);
		CHECK_EQ(p.low.started + p.high.started, 0);
	}
	CHECK_STATUS(app_bs->ConnectController(NULL, NULL, NULL, FALSE), EFI_INVALID_PARAMETER);
	controller_remove(ctrl, G(1), &iface);
	pair_teardown(&p);
}

APP_TEST(connect_passes_remaining_path_unchanged)
{
	struct pair p;
	EFI_GUID *g[1] = {G(2)};
	EFI_DEVICE_PATH_PROTOCOL *rest = dp_vendor_path(g, 1);

	if (CHECK(pair_setup(&p)) && CHECK(rest)) {
		p.high.expect_remaining = p.low.expect_remaining = rest;
		CHECK_STATUS(app_bs->ConnectController(p.ctrl, NULL, rest, FALSE), EFI_SUCCESS);
		/* The same path (a firmware may pass an aligned copy). */
		CHECK(p.high.remaining_seen >= 1 &&
		      p.high.remaining_equal == p.high.remaining_seen);
		CHECK(p.low.remaining_seen >= 1 && p.low.remaining_equal == p.low.remaining_seen);
	}
	pair_teardown(&p);
	app_free(rest);
}

APP_TEST(connect_failed_start_is_not_found)
{
	struct pair p;

	if (CHECK(pair_setup(&p))) {
		p.high.start_status = p.low.start_status = EFI_DEVICE_ERROR;
		CHECK_STATUS(app_bs->ConnectController(p.ctrl, NULL, NULL, FALSE), EFI_NOT_FOUND);
		CHECK_EQ(by_driver_opens(p.ctrl, G(0), p.high.binding.DriverBindingHandle), 0);
	}
	pair_teardown(&p);
}

/* A bus driver making two children and a driver for those children. */
struct bus {
	UINT64 iface;
	EFI_HANDLE ctrl;
	struct tdrv bus, leaf;
	struct drv_log log;
};

static bool bus_setup(struct bus *b)
{
	mem_set(b, 0, sizeof(*b));
	b->ctrl = controller(G(3), &b->iface);
	if (!b->ctrl || !tdrv_add(&b->bus, 1, V_HIGH, G(3), &b->log) ||
	    !tdrv_add(&b->leaf, 2, V_HIGH, G(4), &b->log))
		return false;
	b->bus.child = G(4);
	b->bus.nchildren = 2;
	return true;
}

static void bus_teardown(struct bus *b)
{
	controller_remove(b->ctrl, G(3), &b->iface);
	for (UINTN k = 0; k < ARRAY_SIZE(b->bus.children); k++)
		if (b->bus.children[k])
			app_bs->UninstallProtocolInterface(b->bus.children[k], G(4),
							   &b->bus.child_iface);
	tdrv_remove(&b->bus);
	tdrv_remove(&b->leaf);
}

APP_TEST(connect_one_level_without_recursion)
{
	struct bus b;

	if (CHECK(bus_setup(&b)) &&
	    CHECK_STATUS(app_bs->ConnectController(b.ctrl, NULL, NULL, FALSE), EFI_SUCCESS)) {
		CHECK_EQ(b.bus.started, 1);
		CHECK_EQ(handle_count(G(4)), 2);
		CHECK_EQ(b.leaf.started, 0);
	}
	bus_teardown(&b);
}

APP_TEST(connect_recursive_reaches_children)
{
	struct bus b;

	if (CHECK(bus_setup(&b)) &&
	    CHECK_STATUS(app_bs->ConnectController(b.ctrl, NULL, NULL, TRUE), EFI_SUCCESS)) {
		CHECK_EQ(b.bus.started, 1);
		CHECK_EQ(b.leaf.started, 2);
		for (int k = 0; k < 2; k++)
			CHECK_EQ(by_driver_opens(b.bus.children[k], G(4),
						 b.leaf.binding.DriverBindingHandle),
				 1);
	}
	bus_teardown(&b);
}

static UINTN find_op(struct drv_log *log, UINTN driver, UINTN op, UINTN children)
{
	for (UINTN i = 0; i < log->count; i++)
		if (log->entry[i].driver == driver && log->entry[i].op == op &&
		    log->entry[i].children == children)
			return i;
	return ~(UINTN)0;
}

APP_TEST(disconnect_stops_children_first)
{
	struct bus b;

	if (!CHECK(bus_setup(&b)) ||
	    !CHECK_STATUS(app_bs->ConnectController(b.ctrl, NULL, NULL, TRUE), EFI_SUCCESS))
		goto out;
	b.log.count = 0;
	CHECK_STATUS(app_bs->DisconnectController(b.ctrl, NULL, NULL), EFI_SUCCESS);
	CHECK_EQ(b.leaf.stopped, 2);
	CHECK_EQ(handle_count(G(4)), 0);
	UINTN with_children = find_op(&b.log, 1, OP_STOP, 2);
	UINTN last = find_op(&b.log, 1, OP_STOP, 0);
	if (CHECK(with_children != ~(UINTN)0) && CHECK(last != ~(UINTN)0)) {
		/* The children are destroyed (and their drivers stopped) before the bus driver
		 * lets go of the controller. */
		CHECK(with_children < last);
		CHECK_EQ(last, b.log.count - 1);
	}
	CHECK_EQ(by_driver_opens(b.ctrl, G(3), b.bus.binding.DriverBindingHandle), 0);
out:
	bus_teardown(&b);
}

APP_TEST(disconnect_single_child)
{
	struct bus b;

	if (!CHECK(bus_setup(&b)) ||
	    !CHECK_STATUS(app_bs->ConnectController(b.ctrl, NULL, NULL, TRUE), EFI_SUCCESS))
		goto out;
	EFI_HANDLE c0 = b.bus.children[0], c1 = b.bus.children[1];
	b.log.count = 0;
	CHECK_STATUS(app_bs->DisconnectController(b.ctrl, b.bus.binding.DriverBindingHandle, c0),
		     EFI_SUCCESS);
	CHECK(b.bus.last_stop_child == c0);
	CHECK(find_op(&b.log, 1, OP_STOP, 1) != ~(UINTN)0);
	CHECK_EQ(find_op(&b.log, 1, OP_STOP, 0), ~(UINTN)0);
	CHECK_EQ(b.leaf.stopped, 1);
	CHECK(handle_listed(c1, G(4)));
	CHECK(!handle_listed(c0, G(4)));
	CHECK_EQ(by_driver_opens(b.ctrl, G(3), b.bus.binding.DriverBindingHandle), 1);
	/* Destroying the only remaining child disconnects the bus driver as well. */
	CHECK_STATUS(app_bs->DisconnectController(b.ctrl, b.bus.binding.DriverBindingHandle, c1),
		     EFI_SUCCESS);
	CHECK(find_op(&b.log, 1, OP_STOP, 0) != ~(UINTN)0);
	CHECK_EQ(by_driver_opens(b.ctrl, G(3), b.bus.binding.DriverBindingHandle), 0);
out:
	bus_teardown(&b);
}

APP_TEST(disconnect_driver_not_managing)
{
	struct pair p;
	UINT64 iface = 0;
	EFI_HANDLE idle = controller(G(1), &iface);

	if (CHECK(pair_setup(&p)) && CHECK(idle) &&
	    CHECK_STATUS(app_bs->ConnectController(p.ctrl, NULL, NULL, FALSE), EFI_SUCCESS)) {
		CHECK_STATUS_KNOWN(
		    app_bs->DisconnectController(p.ctrl, p.low.binding.DriverBindingHandle, NULL),
		    EFI_SUCCESS, FW_EDK2,
		    "EDK2 returns EFI_NOT_FOUND when the given driver does not "
		    "manage the controller");
		CHECK_EQ(p.low.stopped + p.high.stopped, 0);
		CHECK_STATUS(app_bs->DisconnectController(idle, NULL, NULL), EFI_SUCCESS);
		CHECK_EQ(p.high.stopped, 0);
	}
	controller_remove(idle, G(1), &iface);
	pair_teardown(&p);
}

APP_TEST(disconnect_argument_checks)
{
	struct pair p;
	struct {
		UINT64 junk[8];
	} not_a_handle = {{0}};
	EFI_HANDLE agent = NULL;
	void *i;

	if (!CHECK(pair_setup(&p)))
		goto out;
	CHECK_STATUS(app_bs->DisconnectController(NULL, NULL, NULL), EFI_INVALID_PARAMETER);
	CHECK_STATUS(app_bs->DisconnectController(p.ctrl, &not_a_handle, NULL),
		     EFI_INVALID_PARAMETER);
	CHECK_STATUS(app_bs->DisconnectController(p.ctrl, NULL, &not_a_handle),
		     EFI_INVALID_PARAMETER);
	/* An agent that holds the controller BY_DRIVER but is no driver. */
	if (CHECK_STATUS(app_bs->InstallProtocolInterface(&agent, G(5), EFI_NATIVE_INTERFACE, NULL),
			 EFI_SUCCESS) &&
	    CHECK_STATUS(app_bs->OpenProtocol(p.ctrl, G(0), &i, agent, p.ctrl, BY_DRIVER),
			 EFI_SUCCESS)) {
		CHECK_STATUS(app_bs->DisconnectController(p.ctrl, agent, NULL),
			     EFI_INVALID_PARAMETER);
		app_bs->CloseProtocol(p.ctrl, G(0), agent, p.ctrl);
	}
	if (agent)
		app_bs->UninstallProtocolInterface(agent, G(5), NULL);
out:
	pair_teardown(&p);
}

APP_TEST(uninstall_stops_driver)
{
	struct pair p;

	if (CHECK(pair_setup(&p)) &&
	    CHECK_STATUS(app_bs->ConnectController(p.ctrl, NULL, NULL, FALSE), EFI_SUCCESS)) {
		CHECK_STATUS(app_bs->UninstallProtocolInterface(p.ctrl, G(0), &p.iface),
			     EFI_SUCCESS);
		CHECK_EQ(p.high.stopped, 1);
		void *i;
		CHECK_STATUS(app_bs->HandleProtocol(p.ctrl, G(0), &i), EFI_UNSUPPORTED);
	}
	pair_teardown(&p);
}

APP_TEST(reinstall_restarts_driver)
{
	struct pair p;
	UINT64 other = 0;

	if (CHECK(pair_setup(&p)) &&
	    CHECK_STATUS(app_bs->ConnectController(p.ctrl, NULL, NULL, FALSE), EFI_SUCCESS)) {
		CHECK_STATUS(app_bs->ReinstallProtocolInterface(p.ctrl, G(0), &p.iface, &other),
			     EFI_SUCCESS);
		CHECK_EQ(p.high.stopped, 1);
		CHECK_EQ(p.high.started, 2);
		CHECK(p.high.last_interface == &other);
		app_bs->DisconnectController(p.ctrl, NULL, NULL);
		app_bs->ReinstallProtocolInterface(p.ctrl, G(0), &other, &p.iface);
	}
	pair_teardown(&p);
}

APP_TEST(uninstall_refused_when_driver_will_not_stop)
{
	struct pair p;

	if (CHECK(pair_setup(&p)) &&
	    CHECK_STATUS(app_bs->ConnectController(p.ctrl, NULL, NULL, FALSE), EFI_SUCCESS)) {
		p.high.stop_status = EFI_DEVICE_ERROR;
		CHECK_STATUS(app_bs->UninstallProtocolInterface(p.ctrl, G(0), &p.iface),
			     EFI_ACCESS_DENIED);
		CHECK_EQ(by_driver_opens(p.ctrl, G(0), p.high.binding.DriverBindingHandle), 1);
		void *i = NULL;
		CHECK_STATUS(app_bs->HandleProtocol(p.ctrl, G(0), &i), EFI_SUCCESS);
		CHECK(i == &p.iface);
		p.high.stop_status = EFI_SUCCESS;
	}
	pair_teardown(&p);
}

APP_TEST(exclusive_open_stops_driver)
{
	struct pair p;
	void *i = NULL;

	if (CHECK(pair_setup(&p)) &&
	    CHECK_STATUS(app_bs->ConnectController(p.ctrl, NULL, NULL, FALSE), EFI_SUCCESS)) {
		CHECK_STATUS(app_bs->OpenProtocol(p.ctrl, G(0), &i, app_image, NULL,
						  EFI_OPEN_PROTOCOL_EXCLUSIVE),
			     EFI_SUCCESS);
		CHECK(i == &p.iface);
		CHECK_EQ(p.high.stopped, 1);
		CHECK_EQ(by_driver_opens(p.ctrl, G(0), p.high.binding.DriverBindingHandle), 0);
		/* While the application holds it, no driver can connect. */
		CHECK_STATUS(app_bs->ConnectController(p.ctrl, NULL, NULL, FALSE), EFI_NOT_FOUND);
		CHECK_STATUS(app_bs->CloseProtocol(p.ctrl, G(0), app_image, NULL), EFI_SUCCESS);
	}
	pair_teardown(&p);
}

APP_TEST(by_driver_exclusive_takes_over)
{
	struct pair p;
	void *i = NULL;

	if (CHECK(pair_setup(&p)) &&
	    CHECK_STATUS(app_bs->ConnectController(p.ctrl, NULL, NULL, FALSE), EFI_SUCCESS)) {
		EFI_HANDLE low = p.low.binding.DriverBindingHandle;
		CHECK_STATUS(app_bs->OpenProtocol(p.ctrl, G(0), &i, low, p.ctrl,
						  BY_DRIVER | EFI_OPEN_PROTOCOL_EXCLUSIVE),
			     EFI_SUCCESS);
		CHECK_EQ(p.high.stopped, 1);
		CHECK_EQ(by_driver_opens(p.ctrl, G(0), low), 1);
		app_bs->CloseProtocol(p.ctrl, G(0), low, p.ctrl);
	}
	pair_teardown(&p);
}

APP_TEST(exclusive_open_refused_when_driver_will_not_stop)
{
	struct pair p;
	void *i = NULL;

	if (CHECK(pair_setup(&p)) &&
	    CHECK_STATUS(app_bs->ConnectController(p.ctrl, NULL, NULL, FALSE), EFI_SUCCESS)) {
		p.high.stop_status = EFI_DEVICE_ERROR;
		CHECK_STATUS(app_bs->OpenProtocol(p.ctrl, G(0), &i, app_image, NULL,
						  EFI_OPEN_PROTOCOL_EXCLUSIVE),
			     EFI_ACCESS_DENIED);
		CHECK_EQ(by_driver_opens(p.ctrl, G(0), p.high.binding.DriverBindingHandle), 1);
		p.high.stop_status = EFI_SUCCESS;
	}
	pair_teardown(&p);
}
