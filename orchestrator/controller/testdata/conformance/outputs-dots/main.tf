# An output a Secret key with a dot is mapped from.
output "age_agekey" {
  value = "AGE-SECRET"
}
