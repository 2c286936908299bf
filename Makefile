# strata: the two commands a new machine needs are `make demo` and `make test`.
# Both build what they need first: OpenTofu from its Go module into bin/tofu,
# and strata itself into bin/strata.

GO        ?= go
TOFU_VERSION ?= v1.10.6
BIN       := $(CURDIR)/bin
TOFU      := $(BIN)/tofu
STRATA    := $(BIN)/strata
DEMO_ENV  ?= environments/demo/dev
FUZZTIME  ?= 20s

export STRATA_TOFU := $(TOFU)

.PHONY: all build tofu test-deps demo test vet fuzz bench clean

all: build

## build: compile strata into bin/strata
build:
	$(GO) build -o $(STRATA) ./cmd/strata

## tofu: build OpenTofu $(TOFU_VERSION) from its Go module into bin/tofu (skipped when already built)
tofu:
	@TOFU_VERSION=$(TOFU_VERSION) ./.ci/build-tofu.sh $(TOFU)

## demo: apply the example environment with the embedded defaults (local source, state, contracts)
demo: tofu build
	$(STRATA) validate $(DEMO_ENV)
	$(STRATA) apply $(DEMO_ENV) --tofu $(TOFU)
	$(STRATA) status $(DEMO_ENV)

## test-deps: install the real servers the tests start on 127.0.0.1:
## Debian's docker-registry, moto_server (PyPI) and versitygw (Go)
test-deps:
	@./.ci/install-test-deps.sh
	@./.ci/install-test-deps-aws.sh

## test: vet, then the whole test suite with the race detector against a real tofu and real servers
test: tofu test-deps vet
	$(GO) test -race -count=1 ./...

vet:
	$(GO) vet ./...

## fuzz: run each parser fuzzer for $(FUZZTIME)
fuzz:
	$(GO) test ./orchestrator/environment/ -run '^$$' -fuzz '^FuzzSubstitute$$' -fuzztime $(FUZZTIME)
	$(GO) test ./orchestrator/environment/ -run '^$$' -fuzz '^FuzzDecodeDocuments$$' -fuzztime $(FUZZTIME)
	$(GO) test ./orchestrator/tofu/ -run '^$$' -fuzz '^FuzzParsePlan$$' -fuzztime $(FUZZTIME)
	$(GO) test ./policy/ -run '^$$' -fuzz '^FuzzPlanID$$' -fuzztime $(FUZZTIME)
	$(GO) test ./contracts/readers/ -run '^$$' -fuzz '^FuzzFindInFile$$' -fuzztime $(FUZZTIME)

## bench: strata against bare tofu on a generated environment of BENCH_STACKS stacks (100),
## then the Go micro-benchmarks (BENCH_MICRO=0 skips them); every figure a ratio to a
## baseline measured in the same run
bench: tofu
	./.ci/bench.sh

clean:
	rm -rf $(BIN)
