/* OpenProtocol, CloseProtocol and OpenProtocolInformation (UEFI 2.10, 7.3): every
 * attribute and its rules, with agents and controllers that are plain handles. Rules
 * that involve a driver being disconnected are in driver.c. */
#define APP_TEST_SUITE "45_open"
#include "conformance.h"

#define BY_HANDLE EFI_OPEN_PROTOCOL_BY_HANDLE_PROTOCOL
#define GET EFI_OPEN_PROTOCOL_GET_PROTOCOL
#define TEST EFI_OPEN_PROTOCOL_TEST_PROTOCOL
#define BY_CHILD EFI_OPEN_PROTOCOL_BY_CHILD_CONTROLLER
#define BY_DRIVER EFI_OPEN_PROTOCOL_BY_DRIVER
#define EXCLUSIVE EFI_OPEN_PROTOCOL_EXCLUSIVE

#define SENTINEL ((void *)(UINTN)0x5e5e5e5e)

/* "Interface is returned unmodified for all error conditions except EFI_UNSUPPORTED and
 * EFI_ALREADY_STARTED" (OpenProtocol): the tests preset it to SENTINEL. */
/* A handle with the protocol under test, two agents and two controllers. */
struct world {
	UINT64 iface;
	EFI_HANDLE h, agent[2], ctrl[2];
};

static EFI_GUID *P(unsigned n)
{
	return tguid(G_PROTO + 20 + n);
}

static bool world_setup(struct world *w)
{
	mem_set(w, 0, sizeof(*w));
	if (app_bs->InstallProtocolInterface(&w->h, P(0), EFI_NATIVE_INTERFACE, &w->iface))
		return false;
	for (int i = 0; i < 2; i++) {
		if (app_bs->InstallProtocolInterface(&w->agent[i], P(1), EFI_NATIVE_INTERFACE,
						     NULL) ||
		    app_bs->InstallProtocolInterface(&w->ctrl[i], P(2), EFI_NATIVE_INTERFACE, NULL))
			return false;
	}
	return true;
}

static void world_teardown(struct world *w)
{
	/* Uninstalling closes what the tests left open. */
	for (int i = 0; i < 2; i++) {
		for (int j = 0; j < 2; j++)
			app_bs->CloseProtocol(w->h, P(0), w->agent[i], w->ctrl[j]);
		app_bs->CloseProtocol(w->h, P(0), w->agent[i], NULL);
	}
	if (w->h)
		app_bs->UninstallProtocolInterface(w->h, P(0), &w->iface);
	for (int i = 0; i < 2; i++) {
		if (w->agent[i])
			app_bs->UninstallProtocolInterface(w->agent[i], P(1), NULL);
		if (w->ctrl[i])
			app_bs->UninstallProtocolInterface(w->ctrl[i], P(2), NULL);
	}
}

static EFI_STATUS open(struct world *w, void **i, EFI_HANDLE agent, EFI_HANDLE ctrl, UINT32 attr)
{
	return app_bs->OpenProtocol(w->h, P(0), i, agent, ctrl, attr);
}

/* Open list entries of the protocol under test, or -1 when the query fails. */
static INTN open_count(struct world *w, EFI_OPEN_PROTOCOL_INFORMATION_ENTRY *copy, UINTN max)
{
	EFI_OPEN_PROTOCOL_INFORMATION_ENTRY *info = NULL;
	UINTN n = 0;

	if (app_bs->OpenProtocolInformation(w->h, P(0), &info, &n) != EFI_SUCCESS)
		return -1;
	if (copy)
		mem_copy(copy, info, MIN(n, max) * sizeof(*info));
	app_free(info);
	return (INTN)n;
}

APP_TEST(open_argument_checks)
{
	struct world w;
	void *i;

	if (!CHECK(world_setup(&w)))
		goto out;
	i = SENTINEL;
	CHECK_STATUS(app_bs->OpenProtocol(w.h, NULL, &i, w.agent[0], NULL, BY_HANDLE),
		     EFI_INVALID_PARAMETER);
	CHECK_STATUS(open(&w, NULL, w.agent[0], NULL, BY_HANDLE), EFI_INVALID_PARAMETER);
	CHECK_STATUS(open(&w, NULL, w.agent[0], NULL, GET), EFI_INVALID_PARAMETER);
	CHECK_STATUS(app_bs->OpenProtocol(NULL, P(0), &i, w.agent[0], NULL, BY_HANDLE),
		     EFI_INVALID_PARAMETER);
	CHECK_EQ((UINTN)i, (UINTN)SENTINEL);
	/* A handle without the protocol: EFI_UNSUPPORTED and NULL in *Interface. */
	CHECK_STATUS(app_bs->OpenProtocol(w.agent[0], P(0), &i, w.agent[1], NULL, GET),
		     EFI_UNSUPPORTED);
	CHECK(i == NULL);
	CHECK_STATUS(app_bs->OpenProtocol(w.agent[0], P(0), NULL, w.agent[1], NULL, TEST),
		     EFI_UNSUPPORTED);
	CHECK_EQ(open_count(&w, NULL, 0), 0);
out:
	world_teardown(&w);
}

APP_TEST(open_illegal_attributes)
{
	static const UINT32 bad[] = {0,
				     BY_HANDLE | GET,
				     GET | TEST,
				     BY_CHILD | BY_DRIVER,
				     BY_CHILD | EXCLUSIVE,
				     BY_HANDLE | EXCLUSIVE,
				     0x40,
				     0x80000000};
	struct world w;

	if (!CHECK(world_setup(&w)))
		goto out;
	for (size_t k = 0; k < ARRAY_SIZE(bad); k++) {
		void *i = SENTINEL;
		CHECK_STATUS(open(&w, &i, w.agent[0], w.ctrl[0], bad[k]), EFI_INVALID_PARAMETER);
		CHECK_EQ((UINTN)i, (UINTN)SENTINEL);
	}
	CHECK_EQ(open_count(&w, NULL, 0), 0);
out:
	world_teardown(&w);
}

APP_TEST(open_missing_agent_or_controller)
{
	static const UINT32 need_agent[] = {BY_CHILD, BY_DRIVER, BY_DRIVER | EXCLUSIVE, EXCLUSIVE};
	static const UINT32 need_ctrl[] = {BY_CHILD, BY_DRIVER, BY_DRIVER | EXCLUSIVE};
	struct world w;
	void *i;

	if (!CHECK(world_setup(&w)))
		goto out;
	for (size_t k = 0; k < ARRAY_SIZE(need_agent); k++)
		CHECK_STATUS(open(&w, &i, NULL, w.ctrl[0], need_agent[k]), EFI_INVALID_PARAMETER);
	for (size_t k = 0; k < ARRAY_SIZE(need_ctrl); k++)
		CHECK_STATUS(open(&w, &i, w.agent[0], NULL, need_ctrl[k]), EFI_INVALID_PARAMETER);
	/* A child controller is never the handle it opens. */
	CHECK_STATUS(open(&w, &i, w.agent[0], w.h, BY_CHILD), EFI_INVALID_PARAMETER);
	CHECK_EQ(open_count(&w, NULL, 0), 0);
out:
	world_teardown(&w);
}

APP_TEST(open_by_handle_get_test_and_counts)
{
	EFI_OPEN_PROTOCOL_INFORMATION_ENTRY e[4];
	struct world w;
	void *i = NULL;

	if (!CHECK(world_setup(&w)))
		goto out;
	CHECK_STATUS(open(&w, &i, w.agent[0], NULL, BY_HANDLE), EFI_SUCCESS);
	CHECK(i == &w.iface);
	if (CHECK_EQ(open_count(&w, e, 4), 1)) {
		CHECK(e[0].AgentHandle == w.agent[0] && e[0].ControllerHandle == NULL);
		CHECK_EQ(e[0].Attributes, BY_HANDLE);
		CHECK_EQ(e[0].OpenCount, 1);
	}
	/* The same agent, controller and attributes again: one entry, counted twice. */
	CHECK_STATUS(open(&w, &i, w.agent[0], NULL, BY_HANDLE), EFI_SUCCESS);
	if (CHECK_EQ(open_count(&w, e, 4), 1))
		CHECK_EQ(e[0].OpenCount, 2);
	CHECK_STATUS(open(&w, &i, w.agent[0], NULL, GET), EFI_SUCCESS);
	CHECK_STATUS(open(&w, NULL, w.agent[1], NULL, TEST), EFI_SUCCESS);
	CHECK_EQ(open_count(&w, e, 4), 3);
	/* Closing removes every entry of that agent and controller. */
	CHECK_STATUS(app_bs->CloseProtocol(w.h, P(0), w.agent[0], NULL), EFI_SUCCESS);
	if (CHECK_EQ(open_count(&w, e, 4), 1)) {
		CHECK(e[0].AgentHandle == w.agent[1]);
		CHECK_EQ(e[0].Attributes, TEST);
	}
	CHECK_STATUS(app_bs->CloseProtocol(w.h, P(0), w.agent[0], NULL), EFI_NOT_FOUND);
	CHECK_STATUS(app_bs->CloseProtocol(w.h, P(0), w.agent[1], NULL), EFI_SUCCESS);
	CHECK_EQ(open_count(&w, NULL, 0), 0);
out:
	world_teardown(&w);
}

APP_TEST(open_information_and_close_checks)
{
	struct world w;
	EFI_OPEN_PROTOCOL_INFORMATION_ENTRY *info = NULL;
	UINTN n = 0;
	void *i;
	struct {
		UINT64 junk[8];
	} not_a_handle = {{0}};

	if (!CHECK(world_setup(&w)))
		goto out;
	CHECK_STATUS(app_bs->OpenProtocolInformation(w.h, P(3), &info, &n), EFI_NOT_FOUND);
	CHECK_STATUS(open(&w, &i, w.agent[0], w.ctrl[0], BY_DRIVER), EFI_SUCCESS);
	CHECK_STATUS(app_bs->CloseProtocol(NULL, P(0), w.agent[0], w.ctrl[0]),
		     EFI_INVALID_PARAMETER);
	CHECK_STATUS(app_bs->CloseProtocol(w.h, P(0), NULL, w.ctrl[0]), EFI_INVALID_PARAMETER);
	CHECK_STATUS(app_bs->CloseProtocol(w.h, NULL, w.agent[0], w.ctrl[0]),
		     EFI_INVALID_PARAMETER);
	CHECK_STATUS(app_bs->CloseProtocol(w.h, P(0), w.agent[0], &not_a_handle),
		     EFI_INVALID_PARAMETER);
	CHECK_STATUS(app_bs->CloseProtocol(w.h, P(3), w.agent[0], w.ctrl[0]), EFI_NOT_FOUND);
	CHECK_STATUS(app_bs->CloseProtocol(w.h, P(0), w.agent[1], w.ctrl[0]), EFI_NOT_FOUND);
	CHECK_STATUS(app_bs->CloseProtocol(w.h, P(0), w.agent[0], w.ctrl[1]), EFI_NOT_FOUND);
	CHECK_STATUS(app_bs->CloseProtocol(w.h, P(0), w.agent[0], NULL), EFI_NOT_FOUND);
	CHECK_EQ(open_count(&w, NULL, 0), 1);
	CHECK_STATUS(app_bs->CloseProtocol(w.h, P(0), w.agent[0], w.ctrl[0]), EFI_SUCCESS);
	CHECK_EQ(open_count(&w, NULL, 0), 0);
out:
	world_teardown(&w);
}

APP_TEST(open_by_driver_rules)
{
	EFI_OPEN_PROTOCOL_INFORMATION_ENTRY e[4];
	struct world w;
	void *i = NULL;

	if (!CHECK(world_setup(&w)))
		goto out;
	CHECK_STATUS(open(&w, &i, w.agent[0], w.ctrl[0], BY_DRIVER), EFI_SUCCESS);
	CHECK(i == &w.iface);
	if (CHECK_EQ(open_count(&w, e, 4), 1)) {
		CHECK(e[0].AgentHandle == w.agent[0] && e[0].ControllerHandle == w.ctrl[0]);
		CHECK_EQ(e[0].Attributes, BY_DRIVER);
	}
	/* The same driver again: EFI_ALREADY_STARTED, with the interface. */
	i = SENTINEL;
	CHECK_STATUS(open(&w, &i, w.agent[0], w.ctrl[0], BY_DRIVER), EFI_ALREADY_STARTED);
	CHECK(i == &w.iface);
	i = SENTINEL;
	CHECK_STATUS_KNOWN(open(&w, &i, w.agent[0], w.ctrl[1], BY_DRIVER), EFI_ALREADY_STARTED,
			   FW_EDK2,
			   "EDK2 reports EFI_ALREADY_STARTED only when the controller and "
			   "attributes match too");
	app_bs->CloseProtocol(w.h, P(0), w.agent[0], w.ctrl[1]);
	/* Another driver is refused. */
	i = SENTINEL;
	CHECK_STATUS(open(&w, &i, w.agent[1], w.ctrl[0], BY_DRIVER), EFI_ACCESS_DENIED);
	CHECK_EQ((UINTN)i, (UINTN)SENTINEL);
	/* Non-driver opens are still allowed. */
	CHECK_STATUS(open(&w, &i, w.agent[1], NULL, GET), EFI_SUCCESS);
	CHECK_STATUS(open(&w, NULL, w.agent[1], NULL, TEST), EFI_SUCCESS);
	CHECK_STATUS(open(&w, &i, w.agent[1], NULL, BY_HANDLE), EFI_SUCCESS);
	CHECK_EQ(open_count(&w, NULL, 0), 4);
	CHECK_STATUS(app_bs->CloseProtocol(w.h, P(0), w.agent[0], w.ctrl[0]), EFI_SUCCESS);
	/* Released, the protocol can be opened by the other driver. */
	CHECK_STATUS(open(&w, &i, w.agent[1], w.ctrl[0], BY_DRIVER), EFI_SUCCESS);
out:
	world_teardown(&w);
}

APP_TEST(open_exclusive_rules)
{
	struct world w;
	void *i = NULL;

	if (!CHECK(world_setup(&w)))
		goto out;
	CHECK_STATUS(open(&w, &i, w.agent[0], NULL, EXCLUSIVE), EFI_SUCCESS);
	CHECK(i == &w.iface);
	i = SENTINEL;
	CHECK_STATUS(open(&w, &i, w.agent[1], w.ctrl[0], BY_DRIVER), EFI_ACCESS_DENIED);
	CHECK_STATUS(open(&w, &i, w.agent[1], w.ctrl[0], BY_DRIVER | EXCLUSIVE), EFI_ACCESS_DENIED);
	CHECK_STATUS(open(&w, &i, w.agent[1], NULL, EXCLUSIVE), EFI_ACCESS_DENIED);
	CHECK_STATUS(open(&w, &i, w.agent[0], NULL, EXCLUSIVE), EFI_ACCESS_DENIED);
	CHECK_EQ((UINTN)i, (UINTN)SENTINEL);
	CHECK_STATUS(open(&w, &i, w.agent[1], NULL, GET), EFI_SUCCESS);
	CHECK_STATUS(open(&w, &i, w.agent[1], w.ctrl[1], BY_CHILD), EFI_SUCCESS);
	CHECK_EQ(open_count(&w, NULL, 0), 3);
	CHECK_STATUS(app_bs->CloseProtocol(w.h, P(0), w.agent[0], NULL), EFI_SUCCESS);
	CHECK_STATUS(open(&w, &i, w.agent[1], w.ctrl[0], BY_DRIVER), EFI_SUCCESS);
out:
	world_teardown(&w);
}

APP_TEST(open_by_driver_exclusive_rules)
{
	struct world w;
	void *i = NULL;

	if (!CHECK(world_setup(&w)))
		goto out;
	CHECK_STATUS(open(&w, &i, w.agent[0], w.ctrl[0], BY_DRIVER | EXCLUSIVE), EFI_SUCCESS);
	CHECK(i == &w.iface);
	i = SENTINEL;
	CHECK_STATUS(open(&w, &i, w.agent[0], w.ctrl[0], BY_DRIVER | EXCLUSIVE),
		     EFI_ALREADY_STARTED);
	CHECK(i == &w.iface);
	i = SENTINEL;
	CHECK_STATUS(open(&w, &i, w.agent[1], w.ctrl[0], BY_DRIVER | EXCLUSIVE), EFI_ACCESS_DENIED);
	CHECK_STATUS(open(&w, &i, w.agent[1], w.ctrl[1], BY_DRIVER), EFI_ACCESS_DENIED);
	CHECK_STATUS(open(&w, &i, w.agent[1], NULL, EXCLUSIVE), EFI_ACCESS_DENIED);
	CHECK_EQ((UINTN)i, (UINTN)SENTINEL);
	CHECK_EQ(open_count(&w, NULL, 0), 1);
out:
	world_teardown(&w);
}

APP_TEST(open_exclusive_over_undisconnectable_driver)
{
	struct world w;
	void *i = NULL;

	if (!CHECK(world_setup(&w)))
		goto out;
	/* The BY_DRIVER opener is a handle without EFI_DRIVER_BINDING_PROTOCOL, so
	 * DisconnectController cannot remove it: exclusive opens are refused. */
	CHECK_STATUS(open(&w, &i, w.agent[0], w.ctrl[0], BY_DRIVER), EFI_SUCCESS);
	CHECK_STATUS(open(&w, &i, w.agent[1], NULL, EXCLUSIVE), EFI_ACCESS_DENIED);
	CHECK_STATUS(open(&w, &i, w.agent[1], w.ctrl[1], BY_DRIVER | EXCLUSIVE), EFI_ACCESS_DENIED);
	CHECK_EQ(open_count(&w, NULL, 0), 1);
out:
	world_teardown(&w);
}

APP_TEST(open_by_child_controller)
{
	EFI_OPEN_PROTOCOL_INFORMATION_ENTRY e[4];
	struct world w;
	void *i = NULL;

	if (!CHECK(world_setup(&w)))
		goto out;
	CHECK_STATUS(open(&w, &i, w.agent[0], w.ctrl[0], BY_CHILD), EFI_SUCCESS);
	CHECK(i == &w.iface);
	if (CHECK_EQ(open_count(&w, e, 4), 1)) {
		CHECK(e[0].AgentHandle == w.agent[0] && e[0].ControllerHandle == w.ctrl[0]);
		CHECK_EQ(e[0].Attributes, BY_CHILD);
	}
	/* A child controller's open does not stand in a driver's way. */
	CHECK_STATUS(open(&w, &i, w.agent[1], w.ctrl[1], BY_DRIVER), EFI_SUCCESS);
	CHECK_STATUS(open(&w, &i, w.agent[0], w.ctrl[1], BY_CHILD), EFI_SUCCESS);
	CHECK_EQ(open_count(&w, NULL, 0), 3);
out:
	world_teardown(&w);
}

APP_TEST(uninstall_closes_passive_opens)
{
	struct world w;
	void *i = NULL;

	if (!CHECK(world_setup(&w)))
		goto out;
	CHECK_STATUS(open(&w, &i, w.agent[0], NULL, BY_HANDLE), EFI_SUCCESS);
	CHECK_STATUS(open(&w, &i, w.agent[1], w.ctrl[0], GET), EFI_SUCCESS);
	CHECK_STATUS(open(&w, NULL, w.agent[1], NULL, TEST), EFI_SUCCESS);
	/* BY_HANDLE_PROTOCOL, GET_PROTOCOL and TEST_PROTOCOL opens do not hold a protocol. */
	if (CHECK_STATUS(app_bs->UninstallProtocolInterface(w.h, P(0), &w.iface), EFI_SUCCESS))
		w.h = NULL;
out:
	world_teardown(&w);
}

APP_TEST(uninstall_refused_while_held)
{
	struct world w;
	void *i = NULL;

	if (!CHECK(world_setup(&w)))
		goto out;
	/* A child controller's open is neither closed nor disconnected by uninstalling. */
	CHECK_STATUS(open(&w, &i, w.agent[0], w.ctrl[0], BY_CHILD), EFI_SUCCESS);
	CHECK_STATUS(app_bs->UninstallProtocolInterface(w.h, P(0), &w.iface), EFI_ACCESS_DENIED);
	CHECK_EQ(open_count(&w, NULL, 0), 1);
	CHECK_STATUS(app_bs->CloseProtocol(w.h, P(0), w.agent[0], w.ctrl[0]), EFI_SUCCESS);
	/* A BY_DRIVER opener that DisconnectController cannot stop keeps it too. */
	CHECK_STATUS(open(&w, &i, w.agent[1], w.ctrl[1], BY_DRIVER), EFI_SUCCESS);
	CHECK_STATUS(app_bs->UninstallProtocolInterface(w.h, P(0), &w.iface), EFI_ACCESS_DENIED);
	CHECK_STATUS(app_bs->ReinstallProtocolInterface(w.h, P(0), &w.iface, &w.iface),
		     EFI_ACCESS_DENIED);
	void *still = NULL;
	CHECK_STATUS(app_bs->HandleProtocol(w.h, P(0), &still), EFI_SUCCESS);
	CHECK(still == &w.iface);
out:
	world_teardown(&w);
}
