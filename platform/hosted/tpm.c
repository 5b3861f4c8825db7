/* ember-run --tpm SOCKET: a TPM 2.0 emulated by swtpm's socket interface
 *   swtpm socket --tpm2 --server type=unixio,path=SOCKET --ctrl type=unixio,path=SOCKET.ctrl
 * Commands go to SOCKET as raw bytes, each answered by one response; the control channel
 * (SOCKET.ctrl) first gets CMD_INIT, the _TPM_Init a machine's reset gives a TPM, after which
 * the firmware's TPM2_Startup is accepted. The TPM becomes the machine's (drivers/tpm):
 * measurements and EFI_TCG2_PROTOCOL work as on QEMU. */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "hosted.h"
#include <ember/drivers/tpm.h>

#define PTM_CMD_INIT 0x00000002 /* swtpm's control command: init the TPM, flags follow */

static struct tpm_device swtpm;
static int data_fd = -1;

static int connect_unix(const char *path)
{
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	int fd;

	if (strlen(path) >= sizeof(addr.sun_path))
		return -1;
	strcpy(addr.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&addr, sizeof(addr)) != 0) {
		close(fd);
		fd = -1;
	}
	return fd;
}

static bool send_all(int fd, const void *buf, size_t size)
{
	const UINT8 *p = buf;

	while (size) {
		ssize_t n = send(fd, p, size, MSG_NOSIGNAL);
		if (n <= 0)
			return false;
		p += n;
		size -= (size_t)n;
	}
	return true;
}

static bool recv_all(int fd, void *buf, size_t size)
{
	UINT8 *p = buf;

	while (size) {
		ssize_t n = recv(fd, p, size, 0);
		if (n <= 0)
			return false;
		p += n;
		size -= (size_t)n;
	}
	return true;
}

static bool control_init(const char *path)
{
	UINT32 request[2] = {htonl(PTM_CMD_INIT), 0}, result = 1;
	int fd = connect_unix(path);
	bool ok = fd >= 0 && send_all(fd, request, sizeof(request)) &&
		  recv_all(fd, &result, sizeof(result)) && result == 0;

	if (fd >= 0)
		close(fd);
	return ok;
}

/* One command, one response: the response's header says how many bytes follow. A response
 * larger than the buffer leaves the stream out of step: the TPM is not used again. */
static EFI_STATUS swtpm_submit(struct tpm_device *tpm, const UINT8 *cmd, UINT32 cmd_size,
			       UINT8 *rsp, UINT32 *rsp_size)
{
	UINT32 size;

	(void)tpm;
	if (*rsp_size < TPM_HEADER_SIZE || !send_all(data_fd, cmd, cmd_size) ||
	    !recv_all(data_fd, rsp, 6))
		return EFI_DEVICE_ERROR;
	size = (UINT32)rsp[2] << 24 | (UINT32)rsp[3] << 16 | (UINT32)rsp[4] << 8 | rsp[5];
	if (size < TPM_HEADER_SIZE || size > *rsp_size || !recv_all(data_fd, rsp + 6, size - 6))
		return EFI_DEVICE_ERROR;
	*rsp_size = size;
	return EFI_SUCCESS;
}

void hosted_tpm_start(const char *socket_path)
{
	char control[256];

	if ((size_t)snprintf(control, sizeof(control), "%s.ctrl", socket_path) >= sizeof(control) ||
	    !control_init(control)) {
		fprintf(stderr, "ember-run: no swtpm control channel at %s.ctrl\n", socket_path);
		exit(2);
	}
	data_fd = connect_unix(socket_path);
	if (data_fd < 0) {
		fprintf(stderr, "ember-run: no swtpm at %s\n", socket_path);
		exit(2);
	}
	swtpm.name = "swtpm";
	swtpm.submit = swtpm_submit;
	if (EFI_ERROR(tpm_start(&swtpm))) {
		fprintf(stderr, "ember-run: the TPM at %s did not start\n", socket_path);
		exit(2);
	}
}
