# strata: the two commands a new machine needs are `make demo` and `make test`.
# Both build what they need first: OpenTofu from its Go module into bin/tofu,
# and strata itself into bin/strata; make test (and make build) also its SOPS
# helper bin/strata-sops and bin/strata-kube, strata built with cluster mode,
# which the demo does not run.

GO        ?= go
TOFU_VERSION ?= v1.10.6
# Flux's controllers the cluster tests run, built from their Go modules
# (each asks for no newer Go than this machine's, and every module they
# need is served).
SOURCE_CONTROLLER_VERSION ?= v1.9.0
NOTIFICATION_CONTROLLER_VERSION ?= v1.6.0
BIN       := $(CURDIR)/bin
TOFU      := $(BIN)/tofu
STRATA    := $(BIN)/strata
# strata-sops: the helper strata decrypts SOPS values with (cmd/strata-sops); it
# goes beside strata, where strata looks for it
STRATA_SOPS_BIN := $(BIN)/strata-sops
# strata-kube: strata built with the tag kube, which adds cluster mode (the controller, its
# runner Jobs, leader election, a cluster's records); strata runs it in its place for those,
# from beside itself
STRATA_KUBE_BIN := $(BIN)/strata-kube
DEMO_ENV  ?= environments/demo/dev
FUZZTIME  ?= 20s
# make test's short run of the whole-load fuzzers (FuzzLoad, FuzzLoadTree), beyond their seeds
LOAD_FUZZTIME ?= 30s
# go test's limit per test binary: a package of end-to-end tests runs for minutes on a
# busy 2-CPU machine, past go's default of 10m
TEST_TIMEOUT ?= 45m
TRIALS    ?= 20
# make test's first pass: the packages that run longest go first, since go test starts its
# packages in the order given; the rest fill in beside them instead of the long ones running
# alone at the end (docs/performance.md). TEST_P test binaries run at once (go test's -p, by
# default the number of CPUs): the end-to-end tests spend much of their time waiting on tofu,
# servers and signals, so one more than the 2 CPUs keeps them busy
TEST_FIRST := ./cmd/strata ./orchestrator/reconcile ./registry-mirror/mirror ./orchestrator/history \
  ./orchestrator/flux ./contracts/ssm ./orchestrator/s3records ./orchestrator/daemon
TEST_P    ?= 3
IMAGE_TAG ?= strata.local/strata:dev
# Everything is compiled without DWARF debugging data (the compiler's -dwarf=false), for OpenTofu,
# the binaries and the tests alike, through GOFLAGS, which the scripts and the tests' own go build
# inherit: no binary needs it (panics and the race detector's reports are symbolised from the
# binary's line tables, not from DWARF), and it costs a tenth of a cold build's compile time
# (docs/performance.md). `make GCFLAGS= …` compiles with it, for a debugger such as Delve.
GCFLAGS   ?= all=-dwarf=false
# (once: a recursive make inherits the exported GOFLAGS)
ifneq ($(strip $(GCFLAGS)),)
ifeq ($(findstring -gcflags=$(GCFLAGS),$(GOFLAGS)),)
export GOFLAGS := $(strip $(GOFLAGS) -gcflags=$(GCFLAGS))
endif
endif
# Build tags of every strata binary: kustomize without Go plugin support.
# strata runs only kustomize's builtin plugins, and importing package plugin
# makes the linker keep and export every symbol: a third larger binary and
# twice the resident memory (docs/performance.md).
GOTAGS    := kustomize_disable_go_plugin_support
# controller-gen writes the Terraform type's deepcopy code and CRD (make crd)
CONTROLLER_GEN ?= sigs.k8s.io/controller-tools/cmd/controller-gen@v0.23.0
# the packages that hold cluster-mode tests (files with the k8s build tag)
K8S_TEST_PKGS = $(sort $(patsubst ./%/,./%,$(dir $(shell grep -rl --include='*_test.go' '^//go:build k8s' .))))

export STRATA_TOFU := $(TOFU)
# the cluster tests put these three in strata's image (internal/k8stest.StrataBinaries)
export STRATA_BIN := $(STRATA)
export STRATA_SOPS := $(STRATA_SOPS_BIN)
export STRATA_KUBE := $(STRATA_KUBE_BIN)

.PHONY: all build binaries modules strata strata-sops strata-kube tofu source-controller notification-controller test-deps demo test test-unit vet fuzz soak bench screenshots clean image crd k8s test-k8s help

all: build

## build: compile strata into bin/strata, its SOPS helper into bin/strata-sops and strata with
## cluster mode into bin/strata-kube, all without cgo (nothing of them needs it; static
## binaries, as in the image). One go build compiles the first two, then strata-kube is built
## from the same cache: go builds side by side would each compile the packages they share
build:
	CGO_ENABLED=0 $(GO) build -tags $(GOTAGS) -o $(BIN)/ ./cmd/strata ./cmd/strata-sops
	@$(MAKE) --no-print-directory strata-kube

## binaries: make tofu, then make build, one after the other, for the same reason (Go's standard
## library, which OpenTofu's build and strata's share)
binaries:
	@$(MAKE) --no-print-directory tofu
	@$(MAKE) --no-print-directory build

## modules: download every module strata's builds, vet and tests need (go list downloads the
## modules of the packages it lists, and compiles nothing), so that make test fetches them while
## OpenTofu compiles, not while strata's build waits for them
modules:
	@$(GO) list -deps -test -tags "$(GOTAGS) k8s kube" ./... ./.ci/testreport ./.ci/benchrepo ./.ci/benchplot ./registry-mirror/mirrortest/testdata/provider >/dev/null

## strata: compile bin/strata alone, the one binary make demo runs
strata:
	CGO_ENABLED=0 $(GO) build -tags $(GOTAGS) -o $(STRATA) ./cmd/strata

## strata-sops: compile bin/strata-sops, the helper strata decrypts SOPS values with
strata-sops:
	CGO_ENABLED=0 $(GO) build -tags $(GOTAGS) -o $(STRATA_SOPS_BIN) ./cmd/strata-sops

## strata-kube: compile bin/strata-kube, strata with cluster mode
strata-kube:
	CGO_ENABLED=0 $(GO) build -tags "$(GOTAGS) kube" -o $(STRATA_KUBE_BIN) ./cmd/strata

## tofu: build OpenTofu $(TOFU_VERSION) from its Go module into bin/tofu (skipped when already built)
tofu:
	@TOFU_VERSION=$(TOFU_VERSION) ./.ci/build-tofu.sh $(TOFU)

## demo: build bin/tofu and bin/strata, one line a step with its time, then validate, apply and
## show the example environment with the embedded defaults (local source, state, contracts)
demo:
	@MAKE="$(MAKE)" GO="$(GO)" GOTAGS="$(GOTAGS)" TOFU="$(TOFU)" TOFU_VERSION="$(TOFU_VERSION)" \
	  STRATA="$(STRATA)" DEMO_ENV="$(DEMO_ENV)" ./.ci/demo.sh

## test-deps: install the real servers the tests start on 127.0.0.1:
## Debian's docker-registry, moto_server (PyPI) and versitygw (Go);
## and Debian's chromium, the browser the web view's tests drive
test-deps:
	@./.ci/install-test-deps.sh
	@./.ci/install-test-deps-aws.sh

## test: vet, then the whole test suite with the race detector against a real tofu and real servers,
## and the command line's tests of cluster mode again as strata-kube builds it (the tag kube: the
## tests of the files built only with it, and those that pass a flag of strata-kube's, as
## .ci/kube-tests.sh lists them; the rest compiles to the same code either way); .ci/testreport
## prints each package's result, the output of failed tests, and the slowest tests and packages
## (the events are kept in bin/test.json and bin/test-kube.json); last, without the race detector,
## the one test whose bound is on CPU time: a 10 MB ConfigMap loaded in at most 10 s; then a short run
## ($(LOAD_FUZZTIME) each) of the two fuzzers of a whole load, plain builds against krusty's. What the tests
## run is built first (OpenTofu, then the three binaries), beside the test servers' install and
## the modules' download, then vetted
test:
	@$(MAKE) --no-print-directory -j3 --output-sync=target binaries test-deps modules
	@$(MAKE) --no-print-directory vet
	bash -o pipefail -c '$(GO) test -json -race -count=1 -p $(TEST_P) -timeout $(TEST_TIMEOUT) $(TEST_FIRST) ./... ./.ci/testreport ./.ci/benchrepo ./.ci/benchplot 2>&1 | \
	  $(GO) run ./.ci/testreport -title "go test ./..." -json $(BIN)/test.json'
	bash -o pipefail -c '$(GO) test -json -race -count=1 -timeout $(TEST_TIMEOUT) -tags kube -run "$$(./.ci/kube-tests.sh)" ./cmd/strata/ 2>&1 | \
	  $(GO) run ./.ci/testreport -title "go test -tags kube ./cmd/strata/" -json $(BIN)/test-kube.json'
	CGO_ENABLED=0 $(GO) test -count=1 -tags $(GOTAGS) -run '^TestWideConfigMap$$' ./orchestrator/flux/
	$(GO) test -run '^$$' -fuzz '^FuzzLoad$$' -fuzztime $(LOAD_FUZZTIME) ./orchestrator/flux/
	$(GO) test -run '^$$' -fuzz '^FuzzLoadTree$$' -fuzztime $(LOAD_FUZZTIME) ./orchestrator/flux/

## test-unit: the fast tests for the edit-test loop, with the race detector: -short,
## so every test that runs tofu or starts a server (registry, moto, versitygw) skips
test-unit: build
	$(GO) test -short -race ./...

## vet: go vet cmd/strata as strata builds it (for its kube_lean*.go, the only files the tags
## kube and k8s leave out), then every package as strata-kube builds them with the cluster
## tests; with make build's tags and without cgo, so that vet compiles nothing make build compiled
vet:
	CGO_ENABLED=0 $(GO) vet -tags $(GOTAGS) ./cmd/strata ./.ci/testreport ./.ci/benchrepo ./.ci/benchplot
	CGO_ENABLED=0 $(GO) vet -tags "$(GOTAGS) k8s kube" ./...

## fuzz: run each parser fuzzer for $(FUZZTIME)
fuzz:
	$(GO) test ./orchestrator/flux/ -run '^$$' -fuzz '^FuzzSubstitute$$' -fuzztime $(FUZZTIME)
	$(GO) test ./orchestrator/flux/ -run '^$$' -fuzz '^FuzzSubstituteScalars$$' -fuzztime $(FUZZTIME)
	$(GO) test ./orchestrator/flux/ -run '^$$' -fuzz '^FuzzPlainWord$$' -fuzztime $(FUZZTIME)
	$(GO) test ./orchestrator/flux/ -run '^$$' -fuzz '^FuzzJSONPatchAsKustomize$$' -fuzztime $(FUZZTIME)
	$(GO) test ./orchestrator/flux/ -run '^$$' -fuzz '^FuzzSetAnnotations$$' -fuzztime $(FUZZTIME)
	$(GO) test ./orchestrator/flux/ -run '^$$' -fuzz '^FuzzRename$$' -fuzztime $(FUZZTIME)
	$(GO) test ./orchestrator/flux/ -run '^$$' -fuzz '^FuzzSetNamespace$$' -fuzztime $(FUZZTIME)
	$(GO) test ./orchestrator/flux/ -run '^$$' -fuzz '^FuzzCommonAnnotations$$' -fuzztime $(FUZZTIME)
	$(GO) test ./orchestrator/flux/ -run '^$$' -fuzz '^FuzzDecodeDocuments$$' -fuzztime $(FUZZTIME)
	$(GO) test ./orchestrator/environment/ -run '^$$' -fuzz '^FuzzParseSettings$$' -fuzztime $(FUZZTIME)
	$(GO) test ./orchestrator/flux/ -run '^$$' -fuzz '^FuzzExpandEnv$$' -fuzztime $(FUZZTIME)
	$(GO) test ./orchestrator/flux/ -run '^$$' -fuzz '^FuzzNormalGitURL$$' -fuzztime $(FUZZTIME)
	$(GO) test ./orchestrator/flux/ -run '^$$' -fuzz '^FuzzOperatorSyncs$$' -fuzztime $(FUZZTIME)
	$(GO) test ./orchestrator/flux/ -run '^$$' -fuzz '^FuzzReadShaped$$' -fuzztime $(FUZZTIME)
	$(GO) test ./orchestrator/flux/ -run '^$$' -fuzz '^FuzzDecodeNode$$' -fuzztime $(FUZZTIME)
	$(GO) test ./orchestrator/flux/ -run '^$$' -fuzz '^FuzzLoad$$' -fuzztime $(FUZZTIME)
	$(GO) test ./orchestrator/flux/ -run '^$$' -fuzz '^FuzzLoadTree$$' -fuzztime $(FUZZTIME)
	$(GO) test ./internal/plainyaml/ -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME)
	$(GO) test ./orchestrator/yamllimits/ -run '^$$' -fuzz '^FuzzCheck$$' -fuzztime $(FUZZTIME)
	$(GO) test ./orchestrator/tofu/ -run '^$$' -fuzz '^FuzzParsePlan$$' -fuzztime $(FUZZTIME)
	$(GO) test ./orchestrator/tofu/ -run '^$$' -fuzz '^FuzzParseVersion$$' -fuzztime $(FUZZTIME)
	$(GO) test ./orchestrator/tofu/ -run '^$$' -fuzz '^FuzzDecodeEvent$$' -fuzztime $(FUZZTIME)
	$(GO) test ./orchestrator/statefile/ -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME)
	$(GO) test ./orchestrator/tcdata/ -run '^$$' -fuzz '^FuzzValues$$' -fuzztime $(FUZZTIME)
	$(GO) test ./orchestrator/statefile/ -run '^$$' -fuzz '^FuzzParseS3Backend$$' -fuzztime $(FUZZTIME)
	$(GO) test ./orchestrator/jobs/ -run '^$$' -fuzz '^FuzzParseRecord$$' -fuzztime $(FUZZTIME)
	$(GO) test ./policy/ -run '^$$' -fuzz '^FuzzPlanID$$' -fuzztime $(FUZZTIME)
	$(GO) test ./orchestrator/reconcile/ -run '^$$' -fuzz '^FuzzBackendKey$$' -fuzztime $(FUZZTIME)
	$(GO) test ./contracts/readers/ -run '^$$' -fuzz '^FuzzFindInFile$$' -fuzztime $(FUZZTIME)
	$(GO) test ./contracts/readers/ -run '^$$' -fuzz '^FuzzFindInJSONFile$$' -fuzztime $(FUZZTIME)
	$(GO) test ./orchestrator/decryption/sopsfile/ -run '^$$' -fuzz '^FuzzValue$$' -fuzztime $(FUZZTIME)
	$(GO) test ./orchestrator/decryption/ -run '^$$' -fuzz '^FuzzDecode$$' -fuzztime $(FUZZTIME)
	$(GO) test ./orchestrator/history/ -run '^$$' -fuzz '^FuzzParseRunningKey$$' -fuzztime $(FUZZTIME)
	$(GO) test ./orchestrator/history/ -run '^$$' -fuzz '^FuzzDecodeHead$$' -fuzztime $(FUZZTIME)
	$(GO) test ./orchestrator/history/ -run '^$$' -fuzz '^FuzzDecodeChunk$$' -fuzztime $(FUZZTIME)
	$(GO) test ./orchestrator/records/ -run '^$$' -fuzz '^FuzzUnpack$$' -fuzztime $(FUZZTIME)
	$(GO) test ./orchestrator/shard/ -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME)
	$(GO) test ./orchestrator/s3records/ -run '^$$' -fuzz '^FuzzParseURL$$' -fuzztime $(FUZZTIME)
	$(GO) test ./orchestrator/s3records/ -run '^$$' -fuzz '^FuzzParseKey$$' -fuzztime $(FUZZTIME)
	$(GO) test ./orchestrator/source/artifact/ -run '^$$' -fuzz '^FuzzParseKeptURL$$' -fuzztime $(FUZZTIME)
	$(GO) test ./orchestrator/inputs/ -run '^$$' -fuzz '^FuzzAdd$$' -fuzztime $(FUZZTIME)
	$(GO) test ./internal/doclinks/ -run '^$$' -fuzz '^FuzzLinks$$' -fuzztime $(FUZZTIME)

## soak: strata killed (kill -9), stopped (SIGTERM), killed with tofu and its whole session (a pod's
## death), and tofu killed alone (the OOM killer) in the middle of applies, $(TRIALS) trials of each (make test runs 5 of each): every resource
## created once, all in state, no process left behind; a create in flight at tofu's death held, never
## made again silently; then a simulated fortnight of 10-minute drift checks of 1,000 stacks
## (make test runs 8): the state directory's size levels off
soak: tofu build
	STRATA_TRIALS=$(TRIALS) $(GO) test -race -count=1 -timeout 60m -run '^(TestKillDuringApply|TestStopDuringApply|TestKillPodDuringApply|TestKillTofuDuringApply)$$' ./cmd/strata/
	STRATA_SOAK_STACKS=1000 $(GO) test -count=1 -timeout 60m -v -run '^TestSoakLevelsOff$$' ./orchestrator/history/

## bench: strata against bare tofu on a generated environment of BENCH_STACKS stacks (100)
## (the drift check against two bare tofu processes and a sequential init && plan loop in
## BENCH_DRIFT_RUNS rounds (5), the median of the rounds' ratios), the load curve (a cold graph at BENCH_CURVE stacks: 100 1000 10000; .ci/benchplot draws
## it), the shapes users write (BENCH_SHAPES: substitution, targetNamespace, patches, components,
## prefixes, a code directory per stack; a cold graph of 10,000 stacks each, the median of
## BENCH_SHAPES_RUNS rounds (3), each against the plain shape of its round), with BENCH_FLEET=1 a warm nothing-due apply of 10,000 stacks of BENCH_FLEET_SHAPE
## (substitutefrom) applied once and kept in
## bin/bench-fleet, then the Go micro-benchmarks (BENCH_MICRO=0 skips them); every figure a
## ratio to a baseline measured in the same run
bench: tofu build
	./.ci/bench.sh

## image: strata's container image, built from Go without Docker, as bin/strata-image.tar
## (IMAGE_PUSH=registry/repo:tag also pushes it; IMAGE_INSECURE=1 for a plain-http registry)
image: tofu
	CGO_ENABLED=0 GOOS=linux GOARCH=amd64 $(GO) build -trimpath -tags $(GOTAGS) -o $(BIN)/strata-linux-amd64 ./cmd/strata
	CGO_ENABLED=0 GOOS=linux GOARCH=amd64 $(GO) build -trimpath -tags $(GOTAGS) -o $(BIN)/strata-sops-linux-amd64 ./cmd/strata-sops
	CGO_ENABLED=0 GOOS=linux GOARCH=amd64 $(GO) build -trimpath -tags "$(GOTAGS) kube" -o $(BIN)/strata-kube-linux-amd64 ./cmd/strata
	$(GO) run ./cmd/strata-image --strata $(BIN)/strata-linux-amd64 --strata-sops $(BIN)/strata-sops-linux-amd64 --strata-kube $(BIN)/strata-kube-linux-amd64 --tofu $(TOFU) \
	  --tag $(IMAGE_TAG) --out $(BIN)/strata-image.tar $(if $(IMAGE_PUSH),--push $(IMAGE_PUSH)) $(if $(IMAGE_INSECURE),--insecure)

## crd: regenerate the Terraform type's deepcopy code (orchestrator/kube/api/v1alpha2) and its
## CRD (flux-apps/strata/crd/) with controller-gen; a test fails when they are stale
crd:
	$(GO) run $(CONTROLLER_GEN) object paths=./orchestrator/kube/api/...
	$(GO) run $(CONTROLLER_GEN) crd paths=./orchestrator/kube/api/... output:crd:dir=flux-apps/strata/crd

## source-controller: build Flux's source-controller from its Go module into bin/source-controller,
## its CRDs beside it (once: the build is kept in ~/.cache/strata/source-controller); the cluster
## tests run it outside the cluster
source-controller:
	@./.ci/build-flux-controller.sh source-controller $(SOURCE_CONTROLLER_VERSION) $(BIN)/source-controller

## notification-controller: build Flux's notification-controller the same way into
## bin/notification-controller (kept in ~/.cache/strata/notification-controller); the cluster tests
## send strata's events to it and check that a Flux Alert delivers them
notification-controller:
	@./.ci/build-flux-controller.sh notification-controller $(NOTIFICATION_CONTROLLER_VERSION) $(BIN)/notification-controller

## k8s: build (once, cached in $$STRATA_K8S_DIR, default ~/.cache/strata/k8s) a real single-node
## Kubernetes for the cluster-mode tests: etcd, kube-apiserver, controller-manager, scheduler,
## containerd and a kubelet that runs pods
k8s:
	@./.ci/k8s/setup.sh

## test-k8s: the cluster-mode tests (build tag k8s; kube, for strata-kube's) against that cluster, started and stopped here
## (with the servers of test-deps: the registry, and versitygw for the records in a bucket)
test-k8s: tofu build source-controller notification-controller test-deps k8s
	@./.ci/k8s/start.sh
	STRATA_K8S_DIR=$${STRATA_K8S_DIR:-$$HOME/.cache/strata/k8s} STRATA_SOURCE_CONTROLLER=$(BIN)/source-controller STRATA_NOTIFICATION_CONTROLLER=$(BIN)/notification-controller $(GO) test -race -count=1 -timeout $(TEST_TIMEOUT) -tags k8s,kube -run 'InCluster' $(K8S_TEST_PKGS) ; \
	  rc=$$?; ./.ci/k8s/stop.sh --wipe; exit $$rc

## screenshots: drive chromium through the web view of a real reconcile of the
## demo environment, and write its pages to bin/screenshots/
screenshots: tofu build test-deps
	STRATA_SCREENSHOTS=$(BIN)/screenshots $(GO) test ./cmd/strata/ -run '^TestWebViewInBrowser$$' -count=1
	@ls $(BIN)/screenshots

## clean: remove bin/
clean:
	rm -rf $(BIN)

## help: list these targets
help:
	@sed -n 's/^## //p' $(MAKEFILE_LIST)
