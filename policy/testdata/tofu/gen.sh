#!/bin/sh
# gen.sh regenerates the terraform_data fixtures of ../ with a real tofu:
#   terraform_data_replace.json        release v1 -> v2: a replace (delete, then create)
#   terraform_data_replace_again.json  the same change, planned again a little later
#   terraform_data_update.json         settings a -> b: an update in place
# Usage: TOFU=../../../bin/tofu ./gen.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
tofu=${TOFU:-tofu}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$here/main.tf" "$work/"
: >"$work/empty.tfrc"
export TF_CLI_CONFIG_FILE="$work/empty.tfrc" TF_IN_AUTOMATION=1
cd "$work"
"$tofu" init -input=false >/dev/null
"$tofu" apply -auto-approve -input=false -var release=v1 -var settings=a >/dev/null
show() { # show NAME ARGS...: plan with ARGS and write ../NAME.json, indented
	name=$1
	shift
	"$tofu" plan -input=false -out=plan.tfplan "$@" >/dev/null
	"$tofu" show -json plan.tfplan | python3 -m json.tool --indent 2 >"$here/../$name.json"
}
show terraform_data_replace -var release=v2 -var settings=a
sleep 2
show terraform_data_replace_again -var release=v2 -var settings=a
show terraform_data_update -var release=v1 -var settings=b
