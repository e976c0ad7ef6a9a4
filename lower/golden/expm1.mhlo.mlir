module {
  func.func @elu_region2(%arg0: tensor<f32>) -> tensor<f32> {
    %0 = "mhlo.fusion"(%arg0) ({
    ^bb0(%arg1: tensor<f32>):
      %1 = "mhlo.exponential_minus_one"(%arg1) : (tensor<f32>) -> tensor<f32>
      "mhlo.return"(%1) : (tensor<f32>) -> ()
    }) {FusionKind = "Expm1", fusion_kind = #mhlo<fusion_kind kCustom>} : (tensor<f32>) -> tensor<f32>
    return %0 : tensor<f32>
  }
}

