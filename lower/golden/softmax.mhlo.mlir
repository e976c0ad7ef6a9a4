module {
  func.func @softmax_region1(%arg0: tensor<?xf32>, %arg1: tensor<f32>, %arg2: tensor<?xf32>) -> tensor<?xf32> {
    %0 = "mhlo.fusion"(%arg0, %arg1, %arg2) ({
    ^bb0(%arg3: tensor<?xf32>, %arg4: tensor<f32>, %arg5: tensor<?xf32>):
      %1 = "mhlo.constant"() {value = dense<0.000000e+00> : tensor<f32>} : () -> tensor<f32>
      %2 = "mhlo.reduce"(%arg3, %arg4) ({
      ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
        %9 = "mhlo.maximum"(%arg6, %arg7) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "mhlo.return"(%9) : (tensor<f32>) -> ()
      }) {dimensions = dense<0> : tensor<1xi64>} : (tensor<?xf32>, tensor<f32>) -> tensor<f32>
      %3 = "mhlo.broadcast_in_dim"(%2) {broadcast_dimensions = dense<> : tensor<0xi64>} : (tensor<f32>) -> tensor<?xf32>
      %4 = "mhlo.subtract"(%arg5, %3) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
      %5 = "mhlo.exponential"(%4) : (tensor<?xf32>) -> tensor<?xf32>
      %6 = "mhlo.reduce"(%5, %1) ({
      ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
        %9 = "mhlo.add"(%arg6, %arg7) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "mhlo.return"(%9) : (tensor<f32>) -> ()
      }) {dimensions = dense<0> : tensor<1xi64>} : (tensor<?xf32>, tensor<f32>) -> tensor<f32>
      %7 = "mhlo.broadcast_in_dim"(%6) {broadcast_dimensions = dense<> : tensor<0xi64>} : (tensor<f32>) -> tensor<?xf32>
      %8 = "mhlo.divide"(%5, %7) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
      "mhlo.return"(%8) : (tensor<?xf32>) -> ()
    }) {FusionKind = "Softmax", fusion_kind = #mhlo<fusion_kind kCustom>} : (tensor<?xf32>, tensor<f32>, tensor<?xf32>) -> tensor<?xf32>
    return %0 : tensor<?xf32>
  }
}

