/* The protocol database: install/uninstall/reinstall, open rules, locate, notify. */
#include "support/test.h"
#include "../../core/services.h"
#include <ember/lib/str.h>
#include <efi/protocol/driver_binding.h>

static EFI_GUID proto_a = {0xa0a0a0a0, 0x1, 0x2, {1, 1, 1, 1, 1, 1, 1, 1}};
static EFI_GUID proto_b = {0xb0b0b0b0, 0x1, 0x2, {2, 2, 2, 2, 2, 2, 2, 2}};
static EFI_GUID proto_c = {0xc0c0c0c0, 0x1, 0x2, {3, 3, 3, 3, 3, 3, 3, 3}};
static EFI_GUID dp_guid = EFI_DEVICE_PATH_PROTOCOL_GUID;
static int iface_a, iface_b, iface_c;

static EFI_HANDLE new_agent(void)
{
	static int agent_iface;
	EFI_HANDLE h = NULL;
	static EFI_GUID agent_guid = {0xa9e17, 0, 0, {0}};
	ASSERT_STATUS(
	    efi_install_protocol_interface(&h, &agent_guid, EFI_NATIVE_INTERFACE, &agent_iface),
	    EFI_SUCCESS);
	return h;
}

TEST(install_and_uninstall)
{
	EFI_HANDLE h = NULL, h2;
	void *p;

	EXPECT_STATUS(
	    efi_install_protocol_interface(NULL, &proto_a, EFI_NATIVE_INTERFACE, &iface_a),
	    EFI_INVALID_PARAMETER);
	EXPECT_STATUS(efi_install_protocol_interface(&h, NULL, EFI_NATIVE_INTERFACE, &iface_a),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(efi_install_protocol_interface(&h, &proto_a, 1, &iface_a),
		      EFI_INVALID_PARAMETER);
	ASSERT_STATUS(efi_install_protocol_interface(&h, &proto_a, EFI_NATIVE_INTERFACE, &iface_a),
		      EFI_SUCCESS);
	ASSERT(h != NULL);
	h2 = h;
	EXPECT_STATUS(efi_install_protocol_interface(&h2, &proto_a, EFI_NATIVE_INTERFACE, &iface_b),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(efi_install_protocol_interface(&h2, &proto_b, EFI_NATIVE_INTERFACE, &iface_b),
		      EFI_SUCCESS);
	EXPECT(h2 == h);
	EXPECT_STATUS(efi_handle_protocol(h, &proto_b, &p), EFI_SUCCESS);
	EXPECT(p == &iface_b);
	EXPECT_STATUS(efi_handle_protocol(h, &proto_c, &p), EFI_UNSUPPORTED);
	EXPECT_STATUS(efi_uninstall_protocol_interface(h, &proto_a, &iface_b), EFI_NOT_FOUND);
	EXPECT_STATUS(efi_uninstall_protocol_interface(h, &proto_a, &iface_a), EFI_SUCCESS);
	EXPECT_STATUS(efi_uninstall_protocol_interface(h, &proto_b, &iface_b), EFI_SUCCESS);
	/* The handle went with its last protocol. */
	EXPECT(!handle_is_valid(h));
	EXPECT_STATUS(efi_handle_protocol(h, &proto_a, &p), EFI_INVALID_PARAMETER);
}

TEST(multiple_is_all_or_nothing)
{
	EFI_HANDLE h = NULL, h2 = NULL;
	void *p;

	ASSERT_STATUS(efi_install_multiple_protocol_interfaces(&h, &proto_a, &iface_a, &proto_b,
							       &iface_b, NULL),
		      EFI_SUCCESS);
	/* proto_a is already there: nothing of the call may stay. */
	EXPECT_STATUS(efi_install_multiple_protocol_interfaces(&h, &proto_c, &iface_c, &proto_a,
							       &iface_a, NULL),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(efi_handle_protocol(h, &proto_c, &p), EFI_UNSUPPORTED);
	/* Uninstall with one wrong pair restores the others. */
	EXPECT_STATUS(efi_uninstall_multiple_protocol_interfaces(h, &proto_a, &iface_a, &proto_b,
								 &iface_c, NULL),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(efi_handle_protocol(h, &proto_a, &p), EFI_SUCCESS);
	EXPECT_STATUS(efi_uninstall_multiple_protocol_interfaces(h, &proto_a, &iface_a, &proto_b,
								 &iface_b, NULL),
		      EFI_SUCCESS);
	EXPECT(!handle_is_valid(h));
	(void)h2;
}

TEST(duplicate_device_path_refused)
{
	static const UINT8 path[] = {0x01, 0x01, 0x06, 0x00, 0x00, 0x02, /* Pci(0x2,0x0) */
				     0x7f, 0xff, 0x04, 0x00};
	static UINT8 same[sizeof(path)];
	EFI_HANDLE h = NULL, h2 = NULL;

	mem_copy(same, path, sizeof(path));
	ASSERT_STATUS(efi_install_multiple_protocol_interfaces(&h, &dp_guid, (void *)path, NULL),
		      EFI_SUCCESS);
	EXPECT_STATUS(
	    efi_install_multiple_protocol_interfaces(&h2, &dp_guid, same, &proto_a, &iface_a, NULL),
	    EFI_ALREADY_STARTED);
	EXPECT(h2 == NULL);
	EXPECT_STATUS(efi_uninstall_multiple_protocol_interfaces(h, &dp_guid, (void *)path, NULL),
		      EFI_SUCCESS);
}

TEST(locate_handle_and_buffer)
{
	EFI_HANDLE h1 = NULL, h2 = NULL, buffer[4], *all;
	UINTN size = 0, count;

	ASSERT_STATUS(efi_install_protocol_interface(&h1, &proto_c, EFI_NATIVE_INTERFACE, &iface_a),
		      EFI_SUCCESS);
	ASSERT_STATUS(efi_install_protocol_interface(&h2, &proto_c, EFI_NATIVE_INTERFACE, &iface_b),
		      EFI_SUCCESS);
	EXPECT_STATUS(efi_locate_handle(ByProtocol, &proto_c, NULL, &size, NULL),
		      EFI_BUFFER_TOO_SMALL);
	EXPECT_EQ(size, 2 * sizeof(EFI_HANDLE));
	size = sizeof(buffer);
	EXPECT_STATUS(efi_locate_handle(ByProtocol, &proto_c, NULL, &size, buffer), EFI_SUCCESS);
	EXPECT(buffer[0] == h1 && buffer[1] == h2);
	size = 8;
	EXPECT_STATUS(efi_locate_handle(ByProtocol, &proto_c, NULL, &size, NULL),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(efi_locate_handle(ByProtocol, NULL, NULL, &size, buffer),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(efi_locate_handle(7, &proto_c, NULL, &size, buffer), EFI_INVALID_PARAMETER);
	size = sizeof(buffer);
	EXPECT_STATUS(efi_locate_handle(ByProtocol, &proto_b, NULL, &size, buffer), EFI_NOT_FOUND);
	EXPECT_STATUS(efi_locate_handle_buffer(AllHandles, NULL, NULL, &count, &all), EFI_SUCCESS);
	EXPECT(count >= 2);
	efi_free_pool(all);
	void *p;
	EXPECT_STATUS(efi_locate_protocol(&proto_c, NULL, &p), EFI_SUCCESS);
	EXPECT(p == &iface_a);
	EXPECT_STATUS(efi_locate_protocol(&proto_b, NULL, &p), EFI_NOT_FOUND);
	efi_uninstall_protocol_interface(h1, &proto_c, &iface_a);
	efi_uninstall_protocol_interface(h2, &proto_c, &iface_b);
}

static int notified;
static VOID EFIAPI on_install(EFI_EVENT e, VOID *ctx)
{
	notified++;
}

TEST(register_protocol_notify)
{
	EFI_GUID guid = {0xfeed, 1, 2, {0}};
	EFI_HANDLE old = NULL, h1 = NULL, h2 = NULL, found;
	EFI_EVENT e;
	void *reg, *p;
	UINTN size;

	ASSERT_STATUS(efi_install_protocol_interface(&old, &guid, EFI_NATIVE_INTERFACE, &iface_c),
		      EFI_SUCCESS);
	ASSERT_STATUS(efi_create_event(EVT_NOTIFY_SIGNAL, TPL_CALLBACK, on_install, NULL, &e),
		      EFI_SUCCESS);
	ASSERT_STATUS(efi_register_protocol_notify(&guid, e, &reg), EFI_SUCCESS);
	notified = 0;
	size = sizeof(found);
	/* What was there before the registration is not news. */
	EXPECT_STATUS(efi_locate_handle(ByRegisterNotify, NULL, reg, &size, &found), EFI_NOT_FOUND);
	ASSERT_STATUS(efi_install_protocol_interface(&h1, &guid, EFI_NATIVE_INTERFACE, &iface_a),
		      EFI_SUCCESS);
	ASSERT_STATUS(efi_install_protocol_interface(&h2, &guid, EFI_NATIVE_INTERFACE, &iface_b),
		      EFI_SUCCESS);
	EXPECT_EQ(notified, 2);
	size = sizeof(found);
	EXPECT_STATUS(efi_locate_handle(ByRegisterNotify, NULL, reg, &size, &found), EFI_SUCCESS);
	EXPECT(found == h1);
	EXPECT_STATUS(efi_locate_protocol(&guid, reg, &p), EFI_SUCCESS);
	EXPECT(p == &iface_b);
	EXPECT_STATUS(efi_locate_protocol(&guid, reg, &p), EFI_NOT_FOUND);
	/* Reinstalling makes it news again. */
	EXPECT_STATUS(efi_reinstall_protocol_interface(h1, &guid, &iface_a, &iface_c), EFI_SUCCESS);
	EXPECT_EQ(notified, 3);
	EXPECT_STATUS(efi_locate_protocol(&guid, reg, &p), EFI_SUCCESS);
	EXPECT(p == &iface_c);
	EXPECT_STATUS(efi_close_event(e), EFI_SUCCESS);
	EXPECT_STATUS(efi_locate_protocol(&guid, reg, &p), EFI_NOT_FOUND);
	efi_uninstall_protocol_interface(old, &guid, &iface_c);
	efi_uninstall_protocol_interface(h1, &guid, &iface_c);
	efi_uninstall_protocol_interface(h2, &guid, &iface_b);
}

TEST(open_protocol_attribute_rules)
{
	EFI_HANDLE h = NULL, agent = new_agent(), agent2 = new_agent(), controller = new_agent();
	EFI_OPEN_PROTOCOL_INFORMATION_ENTRY *info;
	UINTN count;
	void *p;

	ASSERT_STATUS(efi_install_protocol_interface(&h, &proto_a, EFI_NATIVE_INTERFACE, &iface_a),
		      EFI_SUCCESS);
	EXPECT_STATUS(efi_open_protocol(h, &proto_a, NULL, agent, controller,
					EFI_OPEN_PROTOCOL_TEST_PROTOCOL),
		      EFI_SUCCESS);
	EXPECT_STATUS(efi_open_protocol(h, &proto_b, NULL, agent, controller,
					EFI_OPEN_PROTOCOL_TEST_PROTOCOL),
		      EFI_UNSUPPORTED);
	EXPECT_STATUS(
	    efi_open_protocol(h, &proto_a, NULL, agent, controller, EFI_OPEN_PROTOCOL_GET_PROTOCOL),
	    EFI_INVALID_PARAMETER);
	EXPECT_STATUS(efi_open_protocol(h, &proto_a, &p, agent, controller, 0x3),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(
	    efi_open_protocol(h, &proto_a, &p, NULL, controller, EFI_OPEN_PROTOCOL_BY_DRIVER),
	    EFI_INVALID_PARAMETER);
	EXPECT_STATUS(
	    efi_open_protocol(h, &proto_a, &p, agent, h, EFI_OPEN_PROTOCOL_BY_CHILD_CONTROLLER),
	    EFI_INVALID_PARAMETER);
	ASSERT_STATUS(
	    efi_open_protocol(h, &proto_a, &p, agent, controller, EFI_OPEN_PROTOCOL_BY_DRIVER),
	    EFI_SUCCESS);
	EXPECT(p == &iface_a);
	EXPECT_STATUS(
	    efi_open_protocol(h, &proto_a, &p, agent, controller, EFI_OPEN_PROTOCOL_BY_DRIVER),
	    EFI_ALREADY_STARTED);
	EXPECT(p == &iface_a);
	p = (void *)1;
	EXPECT_STATUS(
	    efi_open_protocol(h, &proto_a, &p, agent2, controller, EFI_OPEN_PROTOCOL_BY_DRIVER),
	    EFI_ACCESS_DENIED);
	EXPECT(p == (void *)1); /* left alone on ACCESS_DENIED */
	/* The same driver for another controller: it has started already. */
	EXPECT_STATUS(
	    efi_open_protocol(h, &proto_a, &p, agent, agent2, EFI_OPEN_PROTOCOL_BY_DRIVER),
	    EFI_ALREADY_STARTED);
	EXPECT(p == &iface_a);
	/* GET_PROTOCOL twice: one entry, counted twice. */
	EXPECT_STATUS(
	    efi_open_protocol(h, &proto_a, &p, agent2, NULL, EFI_OPEN_PROTOCOL_GET_PROTOCOL),
	    EFI_SUCCESS);
	EXPECT_STATUS(
	    efi_open_protocol(h, &proto_a, &p, agent2, NULL, EFI_OPEN_PROTOCOL_GET_PROTOCOL),
	    EFI_SUCCESS);
	/* The TEST_PROTOCOL open is on the list too, as every successful open is. */
	ASSERT_STATUS(efi_open_protocol_information(h, &proto_a, &info, &count), EFI_SUCCESS);
	EXPECT_EQ(count, 3);
	EXPECT(info[0].Attributes == EFI_OPEN_PROTOCOL_TEST_PROTOCOL);
	EXPECT(info[2].AgentHandle == agent2 && info[2].OpenCount == 2);
	efi_free_pool(info);
	EXPECT_STATUS(efi_close_protocol(h, &proto_a, agent2, NULL), EFI_SUCCESS);
	EXPECT_STATUS(efi_close_protocol(h, &proto_a, agent2, NULL), EFI_NOT_FOUND);
	EXPECT_STATUS(efi_close_protocol(h, &proto_a, agent, controller), EFI_SUCCESS);
	/* EXCLUSIVE holders keep others out. */
	ASSERT_STATUS(efi_open_protocol(h, &proto_a, &p, agent, NULL, EFI_OPEN_PROTOCOL_EXCLUSIVE),
		      EFI_SUCCESS);
	EXPECT_STATUS(
	    efi_open_protocol(h, &proto_a, &p, agent2, controller, EFI_OPEN_PROTOCOL_BY_DRIVER),
	    EFI_ACCESS_DENIED);
	EXPECT_STATUS(efi_open_protocol(h, &proto_a, &p, agent2, NULL, EFI_OPEN_PROTOCOL_EXCLUSIVE),
		      EFI_ACCESS_DENIED);
	/* Uninstalling an interface someone holds exclusively is refused. */
	EXPECT_STATUS(efi_uninstall_protocol_interface(h, &proto_a, &iface_a), EFI_ACCESS_DENIED);
	EXPECT_STATUS(efi_close_protocol(h, &proto_a, agent, NULL), EFI_SUCCESS);
	EXPECT_STATUS(efi_uninstall_protocol_interface(h, &proto_a, &iface_a), EFI_SUCCESS);
}

/* ---- A bus driver that makes two children, and a driver for the children ---- */

static EFI_GUID bus_guid = {0xb05, 1, 1, {0}};
static EFI_GUID child_guid = {0xc41d, 1, 1, {0}};
static EFI_GUID leaf_guid = {0x1eaf, 1, 1, {0}};
static int bus_iface, child_iface[2], leaf_iface;
static EFI_HANDLE children[2];
static int bus_starts, bus_stops, leaf_starts, leaf_stops;

static EFI_STATUS EFIAPI bus_supported(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE c,
				       EFI_DEVICE_PATH_PROTOCOL *rest)
{
	return efi_open_protocol(c, &bus_guid, NULL, this->DriverBindingHandle, c,
				 EFI_OPEN_PROTOCOL_TEST_PROTOCOL);
}

static EFI_STATUS EFIAPI bus_start(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE c,
				   EFI_DEVICE_PATH_PROTOCOL *rest)
{
	void *p;
	EFI_STATUS s = efi_open_protocol(c, &bus_guid, &p, this->DriverBindingHandle, c,
					 EFI_OPEN_PROTOCOL_BY_DRIVER);
	if (EFI_ERROR(s))
		return s;
	for (int i = 0; i < 2; i++) {
		children[i] = NULL;
		efi_install_protocol_interface(&children[i], &child_guid, EFI_NATIVE_INTERFACE,
					       &child_iface[i]);
		efi_open_protocol(c, &bus_guid, &p, this->DriverBindingHandle, children[i],
				  EFI_OPEN_PROTOCOL_BY_CHILD_CONTROLLER);
	}
	bus_starts++;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI bus_stop(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE c, UINTN n,
				  EFI_HANDLE *kids)
{
	if (n == 0) {
		bus_stops++;
		return efi_close_protocol(c, &bus_guid, this->DriverBindingHandle, c);
	}
	for (UINTN i = 0; i < n; i++) {
		efi_close_protocol(c, &bus_guid, this->DriverBindingHandle, kids[i]);
		for (int k = 0; k < 2; k++)
			if (kids[i] == children[k]) {
				EFI_STATUS s = efi_uninstall_protocol_interface(
				    kids[i], &child_guid, &child_iface[k]);
				if (EFI_ERROR(s))
					return s;
				children[k] = NULL;
			}
	}
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI leaf_supported(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE c,
					EFI_DEVICE_PATH_PROTOCOL *rest)
{
	return efi_open_protocol(c, &child_guid, NULL, this->DriverBindingHandle, c,
				 EFI_OPEN_PROTOCOL_TEST_PROTOCOL);
}

static EFI_STATUS EFIAPI leaf_start(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE c,
				    EFI_DEVICE_PATH_PROTOCOL *rest)
{
	void *p;
	EFI_STATUS s = efi_open_protocol(c, &child_guid, &p, this->DriverBindingHandle, c,
					 EFI_OPEN_PROTOCOL_BY_DRIVER);
	if (!EFI_ERROR(s)) {
		efi_install_protocol_interface(&c, &leaf_guid, EFI_NATIVE_INTERFACE, &leaf_iface);
		leaf_starts++;
	}
	return s;
}

static EFI_STATUS EFIAPI leaf_stop(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE c, UINTN n,
				   EFI_HANDLE *kids)
{
	leaf_stops++;
	efi_uninstall_protocol_interface(c, &leaf_guid, &leaf_iface);
	return efi_close_protocol(c, &child_guid, this->DriverBindingHandle, c);
}

static EFI_DRIVER_BINDING_PROTOCOL bus_driver = {bus_supported, bus_start, bus_stop, 0x10};
static EFI_DRIVER_BINDING_PROTOCOL leaf_driver = {leaf_supported, leaf_start, leaf_stop, 0x10};

TEST(connect_recursive_and_disconnect)
{
	static EFI_GUID db_guid = EFI_DRIVER_BINDING_PROTOCOL_GUID;
	EFI_HANDLE bus_handle = NULL, controller = NULL;
	void *p;

	ASSERT_STATUS(efi_install_protocol_interface(&bus_handle, &db_guid, EFI_NATIVE_INTERFACE,
						     &bus_driver),
		      EFI_SUCCESS);
	bus_driver.DriverBindingHandle = bus_driver.ImageHandle = bus_handle;
	EFI_HANDLE leaf_handle = NULL;
	ASSERT_STATUS(efi_install_protocol_interface(&leaf_handle, &db_guid, EFI_NATIVE_INTERFACE,
						     &leaf_driver),
		      EFI_SUCCESS);
	leaf_driver.DriverBindingHandle = leaf_driver.ImageHandle = leaf_handle;
	ASSERT_STATUS(efi_install_protocol_interface(&controller, &bus_guid, EFI_NATIVE_INTERFACE,
						     &bus_iface),
		      EFI_SUCCESS);

	EXPECT_STATUS(efi_connect_controller(controller, NULL, NULL, TRUE), EFI_SUCCESS);
	EXPECT_EQ(bus_starts, 1);
	EXPECT_EQ(leaf_starts, 2);
	EXPECT_STATUS(efi_handle_protocol(children[1], &leaf_guid, &p), EFI_SUCCESS);
	/* Connecting again starts nothing new. */
	EXPECT_STATUS(efi_connect_controller(controller, NULL, NULL, FALSE), EFI_NOT_FOUND);
	EXPECT_EQ(bus_starts, 1);

	/* Disconnecting one child: the leaf driver stops first (the child's protocol is in
	 * use BY_DRIVER), then the bus driver destroys the child. */
	EFI_HANDLE first = children[0];
	EXPECT_STATUS(efi_disconnect_controller(controller, NULL, first), EFI_SUCCESS);
	EXPECT_EQ(leaf_stops, 1);
	EXPECT(children[0] == NULL);
	EXPECT(!handle_is_valid(first));
	EXPECT_EQ(bus_stops, 0);
	EXPECT_STATUS(efi_disconnect_controller(controller, NULL, NULL), EFI_SUCCESS);
	EXPECT_EQ(leaf_stops, 2);
	EXPECT_EQ(bus_stops, 1);
	/* Not managed any more: nothing to do is success. */
	EXPECT_STATUS(efi_disconnect_controller(controller, NULL, NULL), EFI_SUCCESS);
	EXPECT_STATUS(efi_disconnect_controller(controller, bus_handle, NULL), EFI_SUCCESS);

	/* Uninstalling a protocol a driver holds disconnects the driver. */
	EXPECT_STATUS(efi_connect_controller(controller, NULL, NULL, TRUE), EFI_SUCCESS);
	EXPECT_EQ(bus_starts, 2);
	EXPECT_STATUS(efi_uninstall_protocol_interface(controller, &bus_guid, &bus_iface),
		      EFI_SUCCESS);
	EXPECT_EQ(bus_stops, 2);
	EXPECT_EQ(leaf_stops, 4);
	EXPECT_STATUS(efi_uninstall_protocol_interface(bus_handle, &db_guid, &bus_driver),
		      EFI_SUCCESS);
	EXPECT_STATUS(efi_uninstall_protocol_interface(leaf_handle, &db_guid, &leaf_driver),
		      EFI_SUCCESS);
}
