module {
  func.func @l2norm_region1(%arg0: tensor<16xf64>) -> tensor<f64> {
    %0 = "mhlo.fusion"(%arg0) ({
    ^bb0(%arg1: tensor<16xf64>):
      %1 = "mhlo.constant"() {value = dense<0.000000e+00> : tensor<f64>} : () -> tensor<f64>
      %2 = "mhlo.multiply"(%arg1, %arg1) : (tensor<16xf64>, tensor<16xf64>) -> tensor<16xf64>
      %3 = "mhlo.reduce"(%2, %1) ({
      ^bb0(%arg2: tensor<f64>, %arg3: tensor<f64>):
        %5 = "mhlo.add"(%arg2, %arg3) : (tensor<f64>, tensor<f64>) -> tensor<f64>
        "mhlo.return"(%5) : (tensor<f64>) -> ()
      }) {dimensions = dense<0> : tensor<1xi64>} : (tensor<16xf64>, tensor<f64>) -> tensor<f64>
      %4 = "mhlo.sqrt"(%3) : (tensor<f64>) -> tensor<f64>
      "mhlo.return"(%4) : (tensor<f64>) -> ()
    }) {FusionKind = "MulRedSqrt", fusion_kind = #mhlo<fusion_kind kCustom>} : (tensor<16xf64>) -> tensor<f64>
    return %0 : tensor<f64>
  }
}

