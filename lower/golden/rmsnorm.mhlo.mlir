module {
  func.func @rmsnorm_region0(%arg0: tensor<?xf32>, %arg1: tensor<i32>, %arg2: tensor<?xf32>) -> tensor<?xf32> {
    %0 = "mhlo.fusion"(%arg0, %arg1, %arg2) ({
    ^bb0(%arg3: tensor<?xf32>, %arg4: tensor<i32>, %arg5: tensor<?xf32>):
      %1 = "mhlo.constant"() {value = dense<0.000000e+00> : tensor<f32>} : () -> tensor<f32>
      %2 = "mhlo.constant"() {value = dense<9.99999974E-6> : tensor<f32>} : () -> tensor<f32>
      %3 = "mhlo.constant"() {value = dense<1.000000e+00> : tensor<f32>} : () -> tensor<f32>
      %4 = "mhlo.multiply"(%arg3, %arg3) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
      %5 = "mhlo.reduce"(%4, %1) ({
      ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
        %14 = "mhlo.add"(%arg6, %arg7) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "mhlo.return"(%14) : (tensor<f32>) -> ()
      }) {dimensions = dense<0> : tensor<1xi64>} : (tensor<?xf32>, tensor<f32>) -> tensor<f32>
      %6 = "mhlo.convert"(%arg4) : (tensor<i32>) -> tensor<f32>
      %7 = "mhlo.divide"(%5, %6) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      %8 = "mhlo.add"(%7, %2) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      %9 = "mhlo.sqrt"(%8) : (tensor<f32>) -> tensor<f32>
      %10 = "mhlo.divide"(%3, %9) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      %11 = "mhlo.broadcast_in_dim"(%10) {broadcast_dimensions = dense<> : tensor<0xi64>} : (tensor<f32>) -> tensor<?xf32>
      %12 = "mhlo.multiply"(%arg3, %11) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
      %13 = "mhlo.multiply"(%12, %arg5) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
      "mhlo.return"(%13) : (tensor<?xf32>) -> ()
    }) {FusionKind = "RMSNorm", fusion_kind = #mhlo<fusion_kind kCustom>} : (tensor<?xf32>, tensor<i32>, tensor<?xf32>) -> tensor<?xf32>
    return %0 : tensor<?xf32>
  }
}

