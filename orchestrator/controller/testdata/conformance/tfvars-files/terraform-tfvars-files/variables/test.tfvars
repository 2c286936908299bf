text = "Hello, TfVarsFiles!"
