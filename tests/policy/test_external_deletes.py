"""Deleting data that lives outside this machine's files is a person's call (S-RULE-177).

Every ask below passed before: the agent holds the person's cloud, cluster, repository and database sign-ins,
and one command there deletes what no file rule sees and nothing on this machine can restore.
"""

from __future__ import annotations

import pytest

from policy.rules.command import judge_call
from policy.rules.effects_dispatch import effects_of
from policy.rules.match import load_rules
from policy.rules.shell.ops import EffectKind, Operation
from tests._requirements import requirement
from tests.policy.verdicts import ps, verdict

ASK = ("external-delete", "ask")


@requirement("S-RULE-177")
@pytest.mark.parametrize(
    "command",
    [
        "terraform destroy -auto-approve",
        "terraform -chdir=infra destroy",
        "terraform apply -destroy -auto-approve",
        "terraform apply -destroy=true",
        "tofu destroy",
        "terragrunt destroy",
        "pulumi destroy --yes",
        "pulumi stack rm prod --force",
        "az group delete --name prod-rg --yes --no-wait",
        "az --subscription prod group delete -n rg",
        "az keyvault purge --name kv",
        "az storage blob delete-batch -s c --account-name a",
        "aws s3 rb s3://company-backups --force",
        "aws s3 rm s3://company-backups --recursive",
        "aws s3 sync s3://src s3://dst --delete",
        "aws --profile prod ec2 terminate-instances --instance-ids i-0abc",
        "aws ec2 terminate-instances --instance-ids=i-0abc",
        "aws rds delete-db-instance --db-instance-identifier prod --skip-final-snapshot",
        "aws iam remove-user-from-group --user-name a --group-name b",
        "aws ecr deregister-task-definition x",
        "aws sqs purge-queue --queue-url u",
        "gcloud projects delete my-prod --quiet",
        "gcloud --project p compute instances delete vm1 --zone z",
        "gcloud storage rm -r gs://b",
        "gsutil -m rm -r gs://b",
        "gsutil rb gs://b",
        "kubectl delete namespace production",
        "kubectl -n prod delete pods --all",
        "kubectl --context prod delete -f deploy.yaml",
        "oc delete project p",
        "helm uninstall prod-release",
        "helm -n prod delete api",
        "gh repo delete org/app --yes",
        "gh repo delete --yes",
        "gh api -XDELETE repos/org/app",
        "gh release delete v1 -y",
        "gh api -X DELETE repos/org/app",
        "gh api --method=DELETE repos/org/app",
        r"git -C C:\src\app push --mirror",
        "git push origin --delete main",
        "git push origin -d old",
        "git push --prune origin",
        "git push origin :old-branch",
        "npm unpublish my-package --force",
        'psql -h prod-db -c "DROP DATABASE app"',
        'psql --command="truncate table users"',
        'psql --command="DROP TABLE users -- owner=app"',
        'sqlcmd -S prod -Q "DROP DATABASE app"',
        'mysql -h prod -e "DROP TABLE users"',
        'mariadb --execute="drop schema app"',
        'mysql -E -e "DROP TABLE t"',
        r'sqlite3 C:\Users\me\app.db "DROP TABLE users"',
        'sqlite3 -cmd "truncate table t" app.db',
        "docker -H tcp://build:2375 volume rm cache",
        'mongosh --eval "db.dropDatabase()"',
        "redis-cli -h prod FLUSHALL",
        "redis-cli flushdb",
        'Invoke-Sqlcmd -Query "DROP TABLE t" -ServerInstance prod',
        'Invoke-Sqlcmd "DROP TABLE t" -ServerInstance .',
        "docker volume rm pgdata",
        "docker volume prune -af",
        "docker rm -f -v db",
        "docker system prune -a --volumes -f",
        "docker compose down -v",
        "docker-compose down --volumes",
        "podman volume rm data",
        "docker volume remove pgdata",
        "docker rm --volumes db",
        "docker compose down --volumes",
        "docker system prune --volumes --filter until=24h",
        "docker-compose down -v --rmi all",
        "docker compose -f C:\\src\\app\\compose.yml down -v",
        "docker-compose -p app down -v",
        "gh -R org/app release delete v1 --yes",
        "gh api --Method=DELETE repos/org/app",
        "Remove-AzResourceGroup -Name prod-rg -Force",
        "Get-AzResourceGroup | Remove-AzResourceGroup -Force",
        "Remove-AzVM -Name vm1 -ResourceGroupName rg -Force",
        "Remove-AzureADUser -ObjectId x",
        "Remove-S3Bucket -BucketName backups -DeleteBucketContent -Force",
        "Remove-EC2Instance -InstanceId i-1 -Force",
        "Remove-MgUser -UserId x@corp.example",
        "Remove-Mailbox x@corp.example",
        'cmd /c "terraform destroy -auto-approve"',
        "Start-Process terraform -ArgumentList 'destroy','-auto-approve'",
        r"& 'C:\Program Files\Amazon\AWSCLIV2\aws.exe' s3 rb s3://b --force",
    ],
)
def test_a_command_deleting_data_elsewhere_asks(command: str) -> None:
    """S-RULE-177: by its verb, whatever route runs the program."""
    assert ps(command) == ASK


@requirement("S-RULE-177")
@pytest.mark.parametrize(
    "command",
    [
        "aws s3 ls s3://b",
        "aws ec2 describe-instances --region eu-west-1",
        "aws --profile delete s3 ls",
        "aws s3 sync s3://b .",
        "az group list -o table",
        "az vm show -n delete -g rg",
        "az login",
        "gcloud compute instances list --filter delete",
        "gcloud config set project my-proj",
        "gsutil ls gs://b",
        "kubectl get pods -n prod",
        "kubectl -n delete get pods",
        "kubectl apply -f deploy.yaml",
        "helm list -A",
        "helm upgrade --install api ./chart",
        "terraform plan -destroy",
        "terraform apply",
        "terraform init",
        "pulumi up",
        "gh repo view org/app",
        "gh api repos/org/app/issues",
        "gh api -X GET repos/org/app",
        "git push",
        "git push origin main",
        "git push -u origin feature/x",
        "git push origin HEAD:refs/heads/review",
        "git push --tags",
        "git push --force origin main",  # S-RULE-83: what it replaces stays in this reflog
        "git push --force-with-lease",
        "git push origin +main",
        "npm publish",
        "docker rm web",
        "docker volume ls",
        "docker system prune -f",
        "docker compose down",
        "docker-compose up -d",
        'psql -h db -c "SELECT 1"',
        "psql -h db -c",
        'sqlcmd -S prod -Q "SELECT name FROM sys.databases"',
        'mysql -e "show databases"',
        'sqlite3 app.db "SELECT * FROM users"',
        'sqlite3 app.db ".tables"',
        "redis-cli ping",
        'Invoke-Sqlcmd -Query "SELECT 1" -ServerInstance prod',
        "Remove-AzContext -Name old",
        "Remove-AzAccount",
        "Get-AzVM",
        "Remove-Module Az.Compute",
        "Remove-Item C:\\Temp\\x.txt",
        'Write-Output "terraform destroy"',
        "Remove-AzResourceGroup -Name rg -WhatIf",
    ],
)
def test_listing_planning_and_ordinary_pushes_stay_ordinary(command: str) -> None:
    """S-RULE-177: only a deleting verb asks; an option's value that spells one is a value."""
    assert ps(command) is None


@requirement("S-RULE-177")
def test_app_launch_of_a_deleting_command_asks() -> None:
    """S-RULE-177: App's `launch_executable` runs the same argv."""
    call = {"mode": "launch_executable", "executable": r"C:\tools\terraform.exe", "args": "destroy -auto-approve"}
    assert verdict("App", **call) == ASK


@requirement("S-RULE-177")
def test_the_effect_names_the_verb_and_has_no_local_target() -> None:
    """S-RULE-177: the reason says which command deletes; the data is not a path on this disk."""
    (found,) = [
        e
        for e in effects_of(Operation(shell="program", name="aws", args=("s3", "rb", "s3://b")))
        if e.kind is EffectKind.EXTERNAL_DELETE
    ]
    assert (found.target, found.detail) == (None, "aws s3 rb")


@requirement("S-RULE-177")
def test_the_reason_names_the_command_and_the_remedy_lists_first() -> None:
    """S-RULE-177: a person reads what would be deleted and how to look first."""
    hit = load_rules().match("PowerShell", {"command": "kubectl delete namespace production"})
    assert hit is not None and hit.rule_id == "external-delete"
    assert "(kubectl delete)" in hit.reason and "--dry-run" in hit.reason


@requirement("S-RULE-177")
@pytest.mark.parametrize(
    ("command", "detail"),
    [
        ("aws s3 rb s3://b", "aws s3 rb"),
        ("aws s3 sync s3://a s3://b --delete", "aws s3 sync --delete"),
        ("az group delete -n rg", "az group delete"),
        ("gcloud projects delete my-prod --quiet", "gcloud projects delete"),
        ("kubectl -n prod delete ns x", "kubectl delete"),
        ("terraform apply -destroy", "terraform apply"),
        ("pulumi stack rm prod", "pulumi stack rm"),
        ("gh repo delete o/r", "gh repo delete"),
        ("gh api -X DELETE repos/o/r", "gh api -X DELETE"),
        ("git push origin --delete x", "git push --delete"),
        ("git push origin -d x", "git push -d"),
        ("git push origin :x", "git push :branch (a delete)"),
        ("npm unpublish p", "npm unpublish"),
        ('psql -c "drop  table t"', "psql drop table"),
        ('sqlite3 a.db "DROP TABLE t"', "sqlite3 drop table"),
        ('Invoke-Sqlcmd "DROP TABLE t"', "Invoke-Sqlcmd drop table"),
        ("redis-cli FLUSHALL", "redis-cli flushall"),
        ("docker volume prune", "docker volume prune"),
        ("docker rm -v db", "docker rm --volumes"),
        ("docker system prune --volumes", "docker system prune --volumes"),
        ("docker compose down -v", "docker compose down --volumes"),
        ("docker-compose down -v", "docker-compose down --volumes"),
        ("Remove-AzVM -Name vm1", "remove-azvm"),
    ],
)
def test_the_effect_names_the_command_and_its_verb(command: str, detail: str) -> None:
    """S-RULE-177: the reason shows which command deletes, in a normal spelling."""
    judged = judge_call("PowerShell", {"command": command})
    assert [e.detail for e in judged.effects if e.kind is EffectKind.EXTERNAL_DELETE] == [detail]
