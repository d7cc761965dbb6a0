/*
 * wsload: a small native load client for tapete's WebSocket protocol (benchmarks/cluster_load.py).
 *
 * The scripted seats of the cluster benchmark cost a Python client about half of what they
 * cost the server, so on a 2-core machine the clients took the core a second node needs.
 * This client plays the same way (every seat answers its turn at once with its first legal
 * action) at a few microseconds a message, in one epoll loop.
 *
 *   wsload WARMUP_S SECONDS SEATS [SETTLE_S]
 *
 * stdin, one line per table to play:  SLOT SOURCE_IP TABLE PORT0 TOKEN0 PORT1 TOKEN1 ...
 * (a port per seat: the node its socket connects to)
 * stdout, when a slot's game is over:  D SLOT      (the driver then sends the slot's next table)
 * and at the end:                      R ACKS P50_US P99_US ERRORS
 * stdin also takes three commands, for loading two sets of nodes in turn (cluster_load.py --sliced):
 *   P   pause: a seat whose turn comes waits (actions in flight still complete), nothing is counted
 *   G   go: the waiting seats act; acknowledgements count again from SETTLE_S after this line
 *       (and the measured window, if WARMUP_S has not yet ended it, opens with the first G)
 *   E   end: report now
 * Acknowledgements (the state whose version follows the action's) are counted between WARMUP_S
 * and WARMUP_S + SECONDS after the start; the client then exits. Frames are not compressed
 * (no permessage-deflate is offered). Linux only; build: gcc -O2 -o wsload wsload.c
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_SEATS 8
#define MAX_CONNS 1024
#define BUF 65536
#define MAX_LAT 4000000

typedef struct {
    int fd, slot, seat, open, upgraded;
    int waiting;       /* its turn came while paused: the action is ready, not sent */
    long pending;      /* version the action was sent at, -1: none */
    double sent_at;    /* when it was sent */
    double retry_at;   /* resend after rate_limited (0: none) */
    char action[512];  /* the last action sent (raw JSON) */
    char token[128], table[128];
    char in[BUF];
    size_t in_len;
} Conn;

static Conn conns[MAX_CONNS];
static int epfd, seats_per_table;
static double t0, measure_from, measure_to;
static long acks, errors;
static int retries; /* connections waiting to send again after rate_limited */
static unsigned *lat_us;
static long lat_n;
static int slot_left[MAX_CONNS];
static int paused;        /* a "P" line: seats whose turn comes wait for a "G" line */
static double count_from; /* acknowledgements count from here (a "G" line's time + settle_s) */
static double settle_s;

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void send_all(int fd, const char *p, size_t n) {
    while (n) {
        ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
        if (w < 0) {
            if (errno == EINTR) continue;
            if (errno == EAGAIN) { /* the socket buffer is full: wait briefly (rare: small frames) */
                struct timespec ts = {0, 100000};
                nanosleep(&ts, NULL);
                continue;
            }
            return;
        }
        p += w;
        n -= (size_t)w;
    }
}

/* A masked client frame (RFC 6455 5.3): opcode, payload. */
static void send_frame(int fd, int opcode, const char *data, size_t n) {
    unsigned char hdr[14];
    size_t h = 0;
    hdr[h++] = 0x80 | (unsigned char)opcode;
    if (n < 126) {
        hdr[h++] = 0x80 | (unsigned char)n;
    } else {
        hdr[h++] = 0x80 | 126;
        hdr[h++] = (unsigned char)(n >> 8);
        hdr[h++] = (unsigned char)n;
    }
    uint32_t key = (uint32_t)rand();
    memcpy(hdr + h, &key, 4);
    const unsigned char *k = hdr + h;
    h += 4;
    char out[8192];
    if (h + n > sizeof out) return;
    memcpy(out, hdr, h);
    for (size_t i = 0; i < n; i++) out[h + i] = (char)(data[i] ^ k[i & 3]);
    send_all(fd, out, h + n);
}

static void send_text(Conn *c, const char *s) { send_frame(c->fd, 1, s, strlen(s)); }

static void send_action(Conn *c) {
    char msg[700];
    snprintf(msg, sizeof msg, "{\"type\":\"action\",\"version\":%ld,\"action\":%s}", c->pending, c->action);
    c->sent_at = now();
    send_text(c, msg);
}

static long find_long(const char *s, size_t n, const char *key) {
    const char *p = memmem(s, n, key, strlen(key));
    if (!p) return -1;
    return strtol(p + strlen(key), NULL, 10);
}

static void close_conn(Conn *c) {
    if (!c->open) return;
    if (c->retry_at > 0) {
        c->retry_at = 0;
        retries--;
    }
    epoll_ctl(epfd, EPOLL_CTL_DEL, c->fd, NULL);
    close(c->fd);
    c->open = 0;
    if (--slot_left[c->slot] == 0) {
        printf("D %d\n", c->slot);
        fflush(stdout);
    }
}

static void on_text(Conn *c, const char *m, size_t n) {
    if (n > 19 && memcmp(m, "{\"type\":\"game_over\"", 19) == 0) {
        close_conn(c);
        return;
    }
    if (n > 15 && memcmp(m, "{\"type\":\"error\"", 15) == 0) {
        if (memmem(m, n, "rate_limited", 12) && c->pending >= 0) {
            if (c->retry_at == 0) retries++;
            c->retry_at = now() + 0.05; /* answering faster than the per-connection rate: send again */
        } else {
            errors++;
        }
        return;
    }
    if (n < 15 || memcmp(m, "{\"type\":\"state\"", 15) != 0) return;
    long version = find_long(m, n, "\"version\":");
    if (c->pending >= 0 && version == c->pending + 1) {
        double t = now();
        if (!paused && t >= count_from && t >= measure_from && t < measure_to) {
            acks++;
            if (lat_n < MAX_LAT) lat_us[lat_n++] = (unsigned)((t - c->sent_at) * 1e6);
        }
        c->pending = -1;
    }
    if (c->pending >= 0) return;
    char mine[32];
    snprintf(mine, sizeof mine, "\"to_act\":%d,", c->seat);
    if (!memmem(m, n, mine, strlen(mine))) return;
    const char *la = memmem(m, n, "\"legal_actions\":[", 17);
    if (!la || la[17] == ']') return;
    const char *a = la + 17, *end = m + n;
    int depth = 0;
    const char *q = a;
    for (; q < end; q++) { /* the first element: an object, no strings with braces in it */
        if (*q == '{' || *q == '[') depth++;
        else if (*q == '}' || *q == ']') {
            if (--depth == 0) { q++; break; }
        } else if (*q == ',' && depth == 0) break;
    }
    size_t len = (size_t)(q - a);
    if (len == 0 || len >= sizeof c->action) return;
    memcpy(c->action, a, len);
    c->action[len] = 0;
    c->pending = version;
    if (paused) {
        c->waiting = 1;
        return;
    }
    send_action(c);
}

static void command(char kind) {
    if (kind == 'P') {
        paused = 1;
    } else if (kind == 'G') {
        paused = 0;
        double t = now();
        if (measure_from > t) measure_from = t;
        count_from = t + settle_s;
        for (int i = 0; i < MAX_CONNS; i++) {
            Conn *c = &conns[i];
            if (c->open && c->waiting) {
                c->waiting = 0;
                send_action(c);
            }
        }
    } else if (kind == 'E') {
        measure_to = now();
    }
}

static void on_readable(Conn *c) {
    for (;;) {
        ssize_t r = recv(c->fd, c->in + c->in_len, BUF - c->in_len, 0);
        if (r == 0) { close_conn(c); return; }
        if (r < 0) {
            if (errno == EAGAIN || errno == EINTR) break;
            close_conn(c);
            return;
        }
        size_t room = BUF - c->in_len;
        c->in_len += (size_t)r;
        if ((size_t)r < room) break; /* drained (level-triggered: epoll reports what comes next) */
        if (c->in_len == BUF) break;
    }
    size_t pos = 0;
    if (!c->upgraded) {
        char *e = memmem(c->in, c->in_len, "\r\n\r\n", 4);
        if (!e) return;
        if (c->in_len < 12 || memcmp(c->in + 9, "101", 3) != 0) {
            fprintf(stderr, "wsload: upgrade refused: %.60s\n", c->in);
            errors++;
            close_conn(c);
            return;
        }
        c->upgraded = 1;
        pos = (size_t)(e + 4 - c->in);
        char hello[400];
        snprintf(hello, sizeof hello, "{\"type\":\"hello\",\"table\":\"%s\",\"token\":\"%s\"}", c->table, c->token);
        send_text(c, hello);
    }
    while (c->open && c->in_len - pos >= 2) {
        unsigned char *f = (unsigned char *)c->in + pos;
        int opcode = f[0] & 15;
        uint64_t n = f[1] & 127;
        size_t h = 2;
        if (n == 126) {
            if (c->in_len - pos < 4) break;
            n = ((uint64_t)f[2] << 8) | f[3];
            h = 4;
        } else if (n == 127) {
            if (c->in_len - pos < 10) break;
            n = 0;
            for (int i = 0; i < 8; i++) n = (n << 8) | f[2 + i];
            h = 10;
        }
        if (n > BUF - 16) { errors++; close_conn(c); return; }
        if (c->in_len - pos < h + n) break;
        const char *payload = (const char *)f + h;
        if (opcode == 1) on_text(c, payload, (size_t)n);
        else if (opcode == 9) send_frame(c->fd, 10, payload, (size_t)n);
        else if (opcode == 8) { close_conn(c); return; }
        pos += h + (size_t)n;
    }
    memmove(c->in, c->in + pos, c->in_len - pos);
    c->in_len -= pos;
}

static Conn *new_conn(void) {
    for (int i = 0; i < MAX_CONNS; i++)
        if (!conns[i].open) return &conns[i];
    return NULL;
}

static void open_table(char *line) {
    int slot, ports[MAX_SEATS];
    char ip[64], table[128], tokens[MAX_SEATS][128];
    char *save = NULL, *tok = strtok_r(line, " ", &save);
    int ok = tok != NULL;
    slot = ok ? atoi(tok) : -1;
    ok = ok && (tok = strtok_r(NULL, " ", &save)) && snprintf(ip, sizeof ip, "%s", tok) > 0;
    ok = ok && (tok = strtok_r(NULL, " ", &save)) && snprintf(table, sizeof table, "%s", tok) > 0;
    for (int s = 0; ok && s < seats_per_table; s++) {
        ok = (tok = strtok_r(NULL, " ", &save)) != NULL;
        if (ok) ports[s] = atoi(tok);
        ok = ok && (tok = strtok_r(NULL, " ", &save)) && snprintf(tokens[s], sizeof tokens[s], "%s", tok) > 0;
    }
    if (!ok || slot < 0 || slot >= MAX_CONNS) {
        fprintf(stderr, "wsload: bad line\n");
        exit(2);
    }
    slot_left[slot] = 0;
    for (int s = 0; s < seats_per_table; s++) {
        Conn *c = new_conn();
        if (!c) { fprintf(stderr, "wsload: too many sockets\n"); exit(2); }
        memset(c, 0, offsetof(Conn, in));
        c->in_len = 0;
        c->slot = slot;
        c->seat = s;
        c->pending = -1;
        snprintf(c->table, sizeof c->table, "%s", table);
        snprintf(c->token, sizeof c->token, "%s", tokens[s]);
        c->fd = socket(AF_INET, SOCK_STREAM, 0);
        int one = 1;
        setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        struct sockaddr_in src = {.sin_family = AF_INET};
        inet_pton(AF_INET, ip, &src.sin_addr); /* a source address per table: per-address limits */
        if (bind(c->fd, (struct sockaddr *)&src, sizeof src) != 0) { perror("wsload: bind"); exit(2); }
        struct sockaddr_in dst = {.sin_family = AF_INET, .sin_port = htons((uint16_t)ports[s])};
        inet_pton(AF_INET, "127.0.0.1", &dst.sin_addr);
        if (connect(c->fd, (struct sockaddr *)&dst, sizeof dst) != 0) { perror("wsload: connect"); exit(2); }
        fcntl(c->fd, F_SETFL, O_NONBLOCK);
        c->open = 1;
        slot_left[slot]++;
        char req[512];
        snprintf(req, sizeof req,
                 "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                 "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
                 ports[s]);
        send_all(c->fd, req, strlen(req));
        struct epoll_event ev = {.events = EPOLLIN, .data.ptr = c};
        epoll_ctl(epfd, EPOLL_CTL_ADD, c->fd, &ev);
    }
}

static int cmp_u(const void *a, const void *b) {
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    if (argc != 4 && argc != 5) {
        fprintf(stderr, "usage: wsload WARMUP_S SECONDS SEATS [SETTLE_S]\n");
        return 2;
    }
    seats_per_table = atoi(argv[3]);
    if (seats_per_table < 1 || seats_per_table > MAX_SEATS) return 2;
    t0 = now();
    measure_from = t0 + atof(argv[1]);
    measure_to = measure_from + atof(argv[2]);
    settle_s = argc == 5 ? atof(argv[4]) : 0.0;
    lat_us = malloc(sizeof(unsigned) * MAX_LAT);
    srand(1);
    epfd = epoll_create1(0);
    fcntl(0, F_SETFL, O_NONBLOCK);
    struct epoll_event ev = {.events = EPOLLIN, .data.ptr = NULL};
    epoll_ctl(epfd, EPOLL_CTL_ADD, 0, &ev);
    char line[2048];
    size_t line_len = 0;
    struct epoll_event evs[256];
    while (now() < measure_to) {
        int n = epoll_wait(epfd, evs, 256, 10);
        for (int i = 0; i < n; i++) {
            Conn *c = evs[i].data.ptr;
            if (c) {
                on_readable(c);
                continue;
            }
            ssize_t r;
            while ((r = read(0, line + line_len, sizeof line - 1 - line_len)) > 0) {
                line_len += (size_t)r;
                char *nl;
                while ((nl = memchr(line, '\n', line_len))) {
                    *nl = 0;
                    if (line[0] == 'P' || line[0] == 'G' || line[0] == 'E') command(line[0]);
                    else open_table(line);
                    size_t used = (size_t)(nl + 1 - line);
                    memmove(line, nl + 1, line_len - used);
                    line_len -= used;
                }
            }
            if (r == 0) {
                epoll_ctl(epfd, EPOLL_CTL_DEL, 0, NULL);
            }
        }
        if (retries == 0) continue; /* the scan below reads every connection: only when one waits */
        double t = now();
        for (int i = 0; i < MAX_CONNS; i++) {
            Conn *c = &conns[i];
            if (c->open && c->retry_at > 0 && t >= c->retry_at && !paused) {
                c->retry_at = 0;
                retries--;
                send_action(c);
            }
        }
    }
    qsort(lat_us, (size_t)lat_n, sizeof(unsigned), cmp_u);
    unsigned p50 = lat_n ? lat_us[lat_n / 2] : 0;
    unsigned p99 = lat_n ? lat_us[(size_t)(lat_n * 99 / 100)] : 0;
    printf("R %ld %u %u %ld\n", acks, p50, p99, errors);
    fflush(stdout);
    return 0;
}
