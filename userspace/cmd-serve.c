// SPDX-License-Identifier: GPL-2.0
/*
 * kprofctl serve: /metrics over HTTP for Prometheus.  HTTP is GNU
 * libmicrohttpd's (Debian's libmicrohttpd-dev): no parser of our own faces
 * the network.  Each scrape renders the mapping afresh (one LIST for the
 * misses, no ioctl per probe), one scrape at a time under a lock; the
 * library's thread answers many connections and drops slow ones.
 */
#include <errno.h>
#include <netdb.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "builtin.h"
#include "capture.h"
#include "prom.h"
#include "prom-render.h"
#include "units.h"

#ifdef KP_HAVE_MHD
#include <microhttpd.h>
#endif

#define SERVE_DEFAULT	"127.0.0.1:9471"

enum { OPT_FROM = KP_OPT_BASE, OPT_LISTEN, OPT_MAX };

static const struct kp_opt serve_opts[] = {
	{ "listen", 0, required_argument, "ADDR:PORT",
	  "where to listen (default " SERVE_DEFAULT "; [::1]:PORT\n"
	  "for IPv6; 0.0.0.0:PORT or [::]:PORT for every address;\n"
	  "port 0 picks a free one, printed on stderr)", OPT_LISTEN, NULL },
	{ "max-series", 0, required_argument, "N",
	  "as export's: series per metric family (default 10000)",
	  OPT_MAX, NULL },
	{ "from", 0, required_argument, "FILE",
	  "serve a capture (kprofctl save) instead of the device",
	  OPT_FROM, NULL },
	{ NULL, 0, 0, NULL, NULL, 0, NULL },
};

const struct kp_help kp_help_serve = {
	.usage = "Usage: kprofctl serve [--listen ADDR:PORT] [--max-series N] "
		 "[--from FILE]\n",
	.text =
"Answer GET /metrics with export's metrics, read from the mapping at each\n"
"scrape (the kprof group suffices, as for show): OpenMetrics 1.0 when the\n"
"client asks for it (Prometheus does), else the text format 0.0.4.  Any\n"
"method but GET gets 405, any other path 404.  Runs until Ctrl-C or\n"
"SIGTERM.  Needs a kprofctl built with libmicrohttpd; without it, use\n"
"export -o FILE with node_exporter's textfile collector.\n",
	.opts = serve_opts,
	.width = 20,
	.examples =
"  kprofctl serve\n"
"  kprofctl serve --listen 0.0.0.0:9471\n"
"  kprofctl serve --from before.json --listen 127.0.0.1:0\n"
"  curl -s http://127.0.0.1:9471/metrics | promtool check metrics\n",
};

#ifdef KP_HAVE_MHD
/* numeric "ADDR:PORT", "[ADDR]:PORT" into ss; 0 or -1 */
static int parse_listen(const char *s, struct sockaddr_storage *ss,
			socklen_t *len)
{
	struct addrinfo hints = { .ai_flags = AI_NUMERICHOST | AI_NUMERICSERV,
				  .ai_socktype = SOCK_STREAM };
	struct addrinfo *ai;
	char host[64], port[8];
	const char *colon = strrchr(s, ':');
	size_t hl;
	uint64_t p;

	if (!colon || kp_parse_u64(colon + 1, 0, 65535, &p))
		return -1;
	hl = (size_t)(colon - s);
	if (hl >= 2 && s[0] == '[' && s[hl - 1] == ']') {
		s++;
		hl -= 2;
	}
	if (!hl || hl >= sizeof(host))
		return -1;
	memcpy(host, s, hl);
	host[hl] = '\0';
	snprintf(port, sizeof(port), "%u", (unsigned int)p);
	if (getaddrinfo(host, port, &hints, &ai))
		return -1;
	memcpy(ss, ai->ai_addr, ai->ai_addrlen);
	*len = ai->ai_addrlen;
	freeaddrinfo(ai);
	return 0;
}

struct serve {
	struct kp_dev *d;
	unsigned int max_series;
	pthread_mutex_t lock;	/* kp_show_ids' state is not for two at once */
};

/* body: malloc'ed and handed over (owned), or a constant */
static enum MHD_Result reply(struct MHD_Connection *c, unsigned int status,
			     const char *type, const char *body, size_t len,
			     int owned)
{
	struct MHD_Response *r = owned ?
		MHD_create_response_from_buffer_with_free_callback(len,
								   (char *)body,
								   free) :
		MHD_create_response_from_buffer(len, (char *)body,
						MHD_RESPMEM_PERSISTENT);
	enum MHD_Result ret;

	if (!r) {
		if (owned)
			free((char *)body);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET");
	ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

static const char msg_index[] = "kprofctl serve: the metrics are at /metrics\n";
static const char msg_405[] = "only GET is answered\n";
static const char msg_404[] = "no such path: the metrics are at /metrics\n";
static const char msg_500[] = "kprofctl serve could not read the statistics; "
			"its stderr says why\n";

static enum MHD_Result answer(void *cls, struct MHD_Connection *c,
			      const char *url, const char *method,
			      const char *version, const char *upload,
			      size_t *upload_len, void **state)
{
	struct serve *sv = cls;
	struct kp_prom_opts p = { .max_series = sv->max_series,
				  .cmd = "serve" };
	const char *accept, *text = "text/plain; charset=utf-8";
	char *body = NULL;
	size_t len = 0;
	FILE *mem;
	int ret;

	(void)version;
	(void)upload;
	(void)upload_len;
	(void)state;
	if (strcmp(method, MHD_HTTP_METHOD_GET))
		return reply(c, MHD_HTTP_METHOD_NOT_ALLOWED, text, msg_405,
			     strlen(msg_405), 0);
	if (!strcmp(url, "/"))
		return reply(c, MHD_HTTP_OK, text, msg_index,
			     strlen(msg_index), 0);
	if (strcmp(url, "/metrics"))
		return reply(c, MHD_HTTP_NOT_FOUND, text, msg_404,
			     strlen(msg_404), 0);
	accept = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
					     MHD_HTTP_HEADER_ACCEPT);
	p.openmetrics = accept &&
			strstr(accept, "application/openmetrics-text") != NULL;
	mem = open_memstream(&body, &len);
	if (!mem)
		return MHD_NO;
	pthread_mutex_lock(&sv->lock);
	ret = kp_prom_render(sv->d, NULL, 0, &p, mem);
	pthread_mutex_unlock(&sv->lock);
	if (fclose(mem) || ret) {
		free(body);
		return reply(c, MHD_HTTP_INTERNAL_SERVER_ERROR, text, msg_500,
			     strlen(msg_500), 0);
	}
	return reply(c, MHD_HTTP_OK, kp_prom_content_type(p.openmetrics),
		     body, len, 1);
}

static int run(struct kp_dev *d, const char *listen, unsigned int max_series)
{
	struct serve sv = { .d = d, .max_series = max_series };
	struct sockaddr_storage ss;
	const union MHD_DaemonInfo *di;
	struct MHD_Daemon *mhd;
	socklen_t sl;
	sigset_t set;
	int sig;

	if (parse_listen(listen, &ss, &sl))
		return kp_bad_usage("serve", "--listen takes a numeric ADDR:PORT "
				    "(127.0.0.1:9471, [::1]:9471), not '%s'",
				    listen);
	if (kp_dev_map(d))
		return 1;
	pthread_mutex_init(&sv.lock, NULL);
	/* the daemon's thread inherits the mask: only sigwait sees these */
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	signal(SIGPIPE, SIG_IGN);
	mhd = MHD_start_daemon(MHD_USE_AUTO_INTERNAL_THREAD | MHD_USE_ERROR_LOG |
			       (ss.ss_family == AF_INET6 ? MHD_USE_IPv6 : 0),
			       0, NULL, NULL, answer, &sv,
			       MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&ss,
			       MHD_OPTION_CONNECTION_LIMIT, 512U,
			       MHD_OPTION_CONNECTION_TIMEOUT, 10U,
			       MHD_OPTION_END);
	if (!mhd) {
		fprintf(stderr, "kprofctl serve: cannot listen on %s: %s (is "
			"the port taken? --listen ADDR:PORT picks another)\n",
			listen, strerror(errno));
		return 1;
	}
	di = MHD_get_daemon_info(mhd, MHD_DAEMON_INFO_BIND_PORT);
	/* the port too: --listen ...:0 asked for any free one */
	fprintf(stderr, "kprofctl serve: listening on %s, port %u: GET /metrics\n",
		listen, di ? di->port : 0);
	sigwait(&set, &sig);
	MHD_stop_daemon(mhd);
	pthread_mutex_destroy(&sv.lock);
	return 0;
}

int cmd_serve(struct kp_dev *d, int argc, char **argv)
{
	struct option lo[KP_MAX_OPTS + 1];
	const char *from = NULL, *listen = SERVE_DEFAULT;
	unsigned int max_series = KP_PROM_MAX_SERIES;
	struct kp_capture cap;
	struct kp_dev fd;
	char shorts[16], err[256];
	uint64_t v;
	int opt, ret;

	kp_opts_build(serve_opts, lo);
	kp_opts_short(serve_opts, shorts, sizeof(shorts));
	optind = 1;
	while ((opt = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
		if (opt == OPT_LISTEN) {
			listen = optarg;
		} else if (opt == OPT_FROM) {
			from = optarg;
		} else if (opt == OPT_MAX) {
			if (kp_parse_u64(optarg, 0, UINT32_MAX, &v))
				return kp_bad_usage("serve", "--max-series takes a "
						    "count (0: no limit), not '%s'",
						    optarg);
			max_series = (unsigned int)v;
		} else {
			return kp_bad_usage("serve", "%s", "unknown option");
		}
	}
	if (optind < argc)
		return kp_bad_usage("serve", "unexpected argument '%s'",
				    argv[optind]);
	if (from) {
		if (kp_capture_load(&cap, from, err, sizeof(err))) {
			fprintf(stderr, "kprofctl serve: %s: %s\n", from, err);
			return 1;
		}
		kp_dev_from_capture(&fd, &cap);
		d = &fd;
	}
	ret = run(d, listen, max_series);
	if (from)
		kp_capture_free(&cap);
	return ret;
}
#else
int cmd_serve(struct kp_dev *d, int argc, char **argv)
{
	(void)d;
	(void)argc;
	(void)argv;
	fprintf(stderr, "kprofctl serve: this kprofctl was built without "
		"libmicrohttpd (a static or cross build, or no libmicrohttpd-dev):"
		" rebuild with it, or run 'kprofctl export -o FILE' from a timer "
		"for node_exporter's textfile collector\n");
	return 1;
}
#endif
